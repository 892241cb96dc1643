import { describe, expect, it } from 'vitest';
import {
  StoreBackupApiOperation,
  StoreSchemaApiOperation,
} from '../gen/store/api/v1/api_operations_pb.js';
import { file_store_backup_v1_backup_messages } from '../gen/store/backup/v1/backup_messages_pb.js';
import { BackupControlService } from '../gen/store/backup/v1/backup_service_pb.js';
import { file_store_schema_v1_schema_messages } from '../gen/store/schema/v1/schema_messages_pb.js';
import { SchemaControlService } from '../gen/store/schema/v1/schema_service_pb.js';
import type { DescService } from '@bufbuild/protobuf';
import {
  AliasPrefix,
  GrpcBackupTypeAliases,
  GrpcSchemaTypeAliases,
  aliasOf,
  allWireRecords,
} from './aliases.js';
import { STORE_BINDING_VERSION } from './version.js';

// The RPC tables of spec 000 and spec 001 (Endpoints), in the specs' order.
const backupRpcs = [
  'StartBackup',
  'StartIncrementalBackup',
  'StartBackupSet',
  'StartRestore',
  'StartColdRestore',
  'StartBackupHealthCheck',
  'StartCatalogRebuild',
  'StartCatalogScrub',
  'GetBackupOperationStatus',
  'ListBackupOperations',
  'CancelBackupOperation',
  'CreateBackup',
  'CreateIncrementalBackup',
  'CreateBackupSet',
  'ListBackups',
  'StreamBackups',
  'DescribeBackup',
  'DeleteBackup',
  'RestoreBackup',
  'RevertRestore',
  'ExportArtifact',
  'GetAuthScheme',
  'ProbeCapabilities',
  'ScheduleBackup',
  'CancelSchedule',
  'GetScopeStatus',
  'IsHealthMonitoringAvailable',
  'CheckBackupHealth',
  'GetBackupHealth',
  'ConfigureBackupHealth',
];
const backupObsolete = [
  'CreateBackup',
  'CreateIncrementalBackup',
  'CreateBackupSet',
  'RestoreBackup',
  'CheckBackupHealth',
];
const schemaRpcs = [
  'SetPolicy',
  'ClearPolicy',
  'GetPolicy',
  'StreamDeadLetters',
  'CountDeadLetters',
  'SetVersionConfig',
  'GetVersionConfig',
  'AdvanceTargetVersion',
  'AdvanceAndMigrate',
  'MigrateToTargetVersion',
  'ClearVersionConfig',
  'Remediate',
  'GetRemediationStatus',
  'ScanCompliance',
  'StartComplianceScan',
  'GetComplianceScanStatus',
  'ListComplianceScans',
  'CancelComplianceScan',
  'StartRemediation',
  'StartMigration',
  'StartAdvanceAndMigrate',
  'GetSchemaOperationStatus',
  'ListSchemaOperations',
  'CancelSchemaOperation',
  'ProbeCapabilities',
  'GetAuthScheme',
];
const schemaDeprecated = [
  'AdvanceAndMigrate',
  'MigrateToTargetVersion',
  'Remediate',
  'ScanCompliance',
];

describe('the contract', () => {
  it('BackupControlService has every RPC of spec 000 and no other', () => {
    expect(BackupControlService.typeName).toBe('store.backup.v1.BackupControlService');
    expect(BackupControlService.methods.map((m) => m.name).sort()).toEqual([...backupRpcs].sort());
  });

  it('SchemaControlService has every RPC of spec 001 and no other', () => {
    expect(SchemaControlService.typeName).toBe('store.schema.v1.SchemaControlService');
    expect(SchemaControlService.methods.map((m) => m.name).sort()).toEqual([...schemaRpcs].sort());
  });

  it('marks exactly the obsolete and deprecated RPCs as deprecated', () => {
    const isDeprecated = (s: DescService) =>
      s.methods
        .filter((m) => m.deprecated)
        .map((m) => m.name)
        .sort();
    expect(isDeprecated(BackupControlService)).toEqual([...backupObsolete].sort());
    expect(isDeprecated(SchemaControlService)).toEqual([...schemaDeprecated].sort());
  });

  it('streams where the specs stream', () => {
    const streaming = (s: DescService) =>
      s.methods
        .filter((m) => m.methodKind === 'server_streaming')
        .map((m) => m.name)
        .sort();
    expect(streaming(BackupControlService)).toEqual(['ExportArtifact', 'StreamBackups']);
    expect(streaming(SchemaControlService)).toEqual(['StreamDeadLetters']);
  });

  it('reports binding version 9.9.0', () => {
    expect(STORE_BINDING_VERSION).toBe('9.9.0');
  });
});

describe("the operation enums keep the specs' numbers", () => {
  it('StoreBackupApiOperation: Unknown = 0, blocking values 1–17, tracked values 18–28', () => {
    const order = [
      'UNKNOWN',
      'CREATE_BACKUP',
      'CREATE_INCREMENTAL_BACKUP',
      'CREATE_BACKUP_SET',
      'LIST_BACKUPS',
      'STREAM_BACKUPS',
      'DESCRIBE_BACKUP',
      'DELETE_BACKUP',
      'RESTORE_BACKUP',
      'REVERT_RESTORE',
      'EXPORT_ARTIFACT',
      'SCHEDULE_BACKUP',
      'CANCEL_SCHEDULE',
      'GET_SCOPE_STATUS',
      'IS_HEALTH_MONITORING_AVAILABLE',
      'CHECK_BACKUP_HEALTH',
      'GET_BACKUP_HEALTH',
      'CONFIGURE_BACKUP_HEALTH',
      'START_BACKUP',
      'START_INCREMENTAL_BACKUP',
      'START_BACKUP_SET',
      'START_RESTORE',
      'START_COLD_RESTORE',
      'GET_BACKUP_OPERATION_STATUS',
      'LIST_BACKUP_OPERATIONS',
      'CANCEL_BACKUP_OPERATION',
      'START_BACKUP_HEALTH_CHECK',
      'START_CATALOG_REBUILD',
      'START_CATALOG_SCRUB',
    ];
    order.forEach((name, number) => {
      expect(StoreBackupApiOperation[name as keyof typeof StoreBackupApiOperation]).toBe(number);
    });
    expect(Object.keys(StoreBackupApiOperation).filter((k) => isNaN(Number(k)))).toHaveLength(29);
  });

  it('StoreSchemaApiOperation: SetPolicy = 0 … ProbeCapabilities = 14, Unknown = 15, then 16–25', () => {
    const order = [
      'SET_POLICY',
      'CLEAR_POLICY',
      'GET_POLICY',
      'STREAM_DEAD_LETTERS',
      'COUNT_DEAD_LETTERS',
      'SET_VERSION_CONFIG',
      'GET_VERSION_CONFIG',
      'ADVANCE_TARGET_VERSION',
      'ADVANCE_AND_MIGRATE',
      'MIGRATE_TO_TARGET_VERSION',
      'CLEAR_VERSION_CONFIG',
      'REMEDIATE',
      'GET_REMEDIATION_STATUS',
      'SCAN_COMPLIANCE',
      'PROBE_CAPABILITIES',
      'UNKNOWN',
      'START_COMPLIANCE_SCAN',
      'GET_COMPLIANCE_SCAN_STATUS',
      'LIST_COMPLIANCE_SCANS',
      'CANCEL_COMPLIANCE_SCAN',
      'START_REMEDIATION',
      'START_MIGRATION',
      'START_ADVANCE_AND_MIGRATE',
      'GET_SCHEMA_OPERATION_STATUS',
      'LIST_SCHEMA_OPERATIONS',
      'CANCEL_SCHEMA_OPERATION',
    ];
    order.forEach((name, number) => {
      expect(StoreSchemaApiOperation[name as keyof typeof StoreSchemaApiOperation]).toBe(number);
    });
    expect(Object.keys(StoreSchemaApiOperation).filter((k) => isNaN(Number(k)))).toHaveLength(26);
  });
});

describe('stable aliases (spec 000/001, Versioning)', () => {
  const familyOf = (typeName: string, fileName: string): string => {
    if (typeName.startsWith('store.backup.')) return AliasPrefix.backupBinding;
    if (typeName.startsWith('store.schema.')) return AliasPrefix.schemaBinding;
    if (typeName.startsWith('store.data.')) return AliasPrefix.data;
    if (typeName.startsWith('store.identity.')) return AliasPrefix.identity;
    if (typeName.startsWith('store.insight.')) return AliasPrefix.insight;
    if (typeName.startsWith('store.lifecycle.')) return AliasPrefix.lifecycle;
    if (typeName.startsWith('store.drills.')) return AliasPrefix.drills;
    if (typeName === 'store.api.v1.StoreSchemaCapabilities') return AliasPrefix.shared;
    if (fileName.endsWith('schema_records.proto')) return AliasPrefix.schemaEngine;
    return AliasPrefix.shared;
  };

  it('every wire record has a unique alias with its family prefix', () => {
    const records = allWireRecords();
    expect(records.length).toBeGreaterThan(90);
    const seen = new Map<string, string>();
    for (const record of records) {
      const value = aliasOf(record);
      expect(value, `${record.typeName} has no alias`).toBeTypeOf('string');
      expect(
        value!.startsWith(familyOf(record.typeName, record.file.name + '.proto')),
        `${record.typeName}: ${value}`,
      ).toBe(true);
      expect(value!.length).toBeGreaterThan(familyOf(record.typeName, record.file.name).length);
      expect(seen.get(value!), `alias ${value} is used twice`).toBeUndefined();
      seen.set(value!, record.typeName);
    }
  });

  it('keeps the spec examples', () => {
    expect(GrpcBackupTypeAliases.BackupCaptureRequestMessage).toBe('oibg.capreq');
    expect(GrpcBackupTypeAliases.BackupHealthConfigureResponse).toBe('oibg.hcfgresp');
    expect(GrpcBackupTypeAliases.BackupOperationRequestMessage).toBe('oibg.opreq');
    expect(GrpcBackupTypeAliases.BackupOperationStatusResponse).toBe('oibg.opstat');
    expect(GrpcBackupTypeAliases.AliasPrefix).toBe('oibg.');
    expect(GrpcSchemaTypeAliases.AliasPrefix).toBe('oisg.');
  });

  it('the alias tables name one constant per record the binding carries', () => {
    expect(GrpcBackupTypeAliases.StoreOperationHandle).toBe('ois.ophandle');
    expect(GrpcBackupTypeAliases.BackupManifest).toBe('ois.manifest');
    expect(GrpcSchemaTypeAliases.SchemaTreeRequest).toBe('oisg.treereq');
    expect(GrpcSchemaTypeAliases.StoreSchemaPolicy).toBe('ols.policy');
    expect(GrpcSchemaTypeAliases.StoreSchemaCapabilities).toBe('ois.scaps');
    for (const message of file_store_backup_v1_backup_messages.messages) {
      expect(GrpcBackupTypeAliases[message.name]).toBe(aliasOf(message));
    }
    for (const message of file_store_schema_v1_schema_messages.messages) {
      expect(GrpcSchemaTypeAliases[message.name]).toBe(aliasOf(message));
    }
  });
});
