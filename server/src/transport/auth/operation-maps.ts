import {
  StoreBackupApiOperation as BackupOp,
  StoreDataApiOperation as DataOp,
  StoreIdentityApiOperation as IdentityOp,
  StoreSchemaApiOperation as SchemaOp,
} from '@store/contract';

/** How one method is presented to the authorizer: its operation and where its target id is. */
export interface MethodAccess {
  operation: number;
  targetId(request: unknown): string | null;
  /**
   * The call changes state (creates, starts, cancels, deletes, restores, reverts, schedules,
   * configures, writes): the audit trail records every one of these, whatever its outcome.
   */
  changesState?: true;
}

type Req = Record<string, unknown>;
const none = (): null => null;
// A server-streaming call whose body held no message reaches here with no request at all.
const field = (name: string) => (request: unknown) => {
  const value = (request as Req | undefined)?.[name];
  return typeof value === 'string' ? value : null;
};
const scopeTree = (request: unknown) => {
  const scope = (request as Req | undefined)?.scope as Req | undefined;
  return typeof scope?.treeId === 'string' ? scope.treeId : null;
};

const backupId = field('backupId');
const treeId = field('treeId');

/** Spec 000, TargetId table, plus DESIGN.md §4 for status/list/cancel and the start forms. */
const BACKUP: Record<string, MethodAccess> = {
  CreateBackup: { operation: BackupOp.CREATE_BACKUP, targetId: scopeTree, changesState: true },
  CreateIncrementalBackup: {
    operation: BackupOp.CREATE_INCREMENTAL_BACKUP,
    targetId: scopeTree,
    changesState: true,
  },
  CreateBackupSet: { operation: BackupOp.CREATE_BACKUP_SET, targetId: none, changesState: true },
  ListBackups: { operation: BackupOp.LIST_BACKUPS, targetId: none },
  StreamBackups: { operation: BackupOp.STREAM_BACKUPS, targetId: none },
  DescribeBackup: { operation: BackupOp.DESCRIBE_BACKUP, targetId: backupId },
  DeleteBackup: { operation: BackupOp.DELETE_BACKUP, targetId: backupId, changesState: true },
  RestoreBackup: { operation: BackupOp.RESTORE_BACKUP, targetId: backupId, changesState: true },
  RevertRestore: { operation: BackupOp.REVERT_RESTORE, targetId: backupId, changesState: true },
  ExportArtifact: { operation: BackupOp.EXPORT_ARTIFACT, targetId: backupId },
  ScheduleBackup: { operation: BackupOp.SCHEDULE_BACKUP, targetId: scopeTree, changesState: true },
  CancelSchedule: { operation: BackupOp.CANCEL_SCHEDULE, targetId: scopeTree, changesState: true },
  GetScopeStatus: { operation: BackupOp.GET_SCOPE_STATUS, targetId: scopeTree },
  IsHealthMonitoringAvailable: {
    operation: BackupOp.IS_HEALTH_MONITORING_AVAILABLE,
    targetId: none,
  },
  CheckBackupHealth: {
    operation: BackupOp.CHECK_BACKUP_HEALTH,
    targetId: backupId,
    changesState: true,
  },
  GetBackupHealth: { operation: BackupOp.GET_BACKUP_HEALTH, targetId: backupId },
  ConfigureBackupHealth: {
    operation: BackupOp.CONFIGURE_BACKUP_HEALTH,
    targetId: backupId,
    changesState: true,
  },
  StartBackup: { operation: BackupOp.START_BACKUP, targetId: scopeTree, changesState: true },
  StartIncrementalBackup: {
    operation: BackupOp.START_INCREMENTAL_BACKUP,
    targetId: scopeTree,
    changesState: true,
  },
  StartBackupSet: { operation: BackupOp.START_BACKUP_SET, targetId: none, changesState: true },
  StartRestore: { operation: BackupOp.START_RESTORE, targetId: backupId, changesState: true },
  StartColdRestore: {
    operation: BackupOp.START_COLD_RESTORE,
    targetId: backupId,
    changesState: true,
  },
  GetBackupOperationStatus: { operation: BackupOp.GET_BACKUP_OPERATION_STATUS, targetId: none },
  ListBackupOperations: { operation: BackupOp.LIST_BACKUP_OPERATIONS, targetId: none },
  CancelBackupOperation: {
    operation: BackupOp.CANCEL_BACKUP_OPERATION,
    targetId: none,
    changesState: true,
  },
  StartBackupHealthCheck: {
    operation: BackupOp.START_BACKUP_HEALTH_CHECK,
    targetId: backupId,
    changesState: true,
  },
  StartCatalogRebuild: {
    operation: BackupOp.START_CATALOG_REBUILD,
    targetId: none,
    changesState: true,
  },
  StartCatalogScrub: {
    operation: BackupOp.START_CATALOG_SCRUB,
    targetId: none,
    changesState: true,
  },
  // No dedicated value: presented as Unknown (spec 000, Operation enum).
  ProbeCapabilities: { operation: BackupOp.UNKNOWN, targetId: none },
};

const schemaTree = (operation: SchemaOp): MethodAccess => ({ operation, targetId: treeId });
const schemaOps = (operation: SchemaOp): MethodAccess => ({ operation, targetId: none });
const changes = (access: MethodAccess): MethodAccess => ({ ...access, changesState: true });

/** Spec 001: every tree RPC's target is the tree id as sent; operation RPCs have none. */
const SCHEMA: Record<string, MethodAccess> = {
  SetPolicy: changes(schemaTree(SchemaOp.SET_POLICY)),
  ClearPolicy: changes(schemaTree(SchemaOp.CLEAR_POLICY)),
  GetPolicy: schemaTree(SchemaOp.GET_POLICY),
  StreamDeadLetters: schemaTree(SchemaOp.STREAM_DEAD_LETTERS),
  CountDeadLetters: schemaTree(SchemaOp.COUNT_DEAD_LETTERS),
  SetVersionConfig: changes(schemaTree(SchemaOp.SET_VERSION_CONFIG)),
  GetVersionConfig: schemaTree(SchemaOp.GET_VERSION_CONFIG),
  AdvanceTargetVersion: changes(schemaTree(SchemaOp.ADVANCE_TARGET_VERSION)),
  AdvanceAndMigrate: changes(schemaTree(SchemaOp.ADVANCE_AND_MIGRATE)),
  MigrateToTargetVersion: changes(schemaTree(SchemaOp.MIGRATE_TO_TARGET_VERSION)),
  ClearVersionConfig: changes(schemaTree(SchemaOp.CLEAR_VERSION_CONFIG)),
  Remediate: changes(schemaTree(SchemaOp.REMEDIATE)),
  GetRemediationStatus: schemaTree(SchemaOp.GET_REMEDIATION_STATUS),
  ScanCompliance: changes(schemaTree(SchemaOp.SCAN_COMPLIANCE)),
  ProbeCapabilities: schemaTree(SchemaOp.PROBE_CAPABILITIES),
  StartComplianceScan: changes(schemaTree(SchemaOp.START_COMPLIANCE_SCAN)),
  GetComplianceScanStatus: schemaOps(SchemaOp.GET_COMPLIANCE_SCAN_STATUS),
  ListComplianceScans: schemaOps(SchemaOp.LIST_COMPLIANCE_SCANS),
  CancelComplianceScan: changes(schemaOps(SchemaOp.CANCEL_COMPLIANCE_SCAN)),
  StartRemediation: changes(schemaTree(SchemaOp.START_REMEDIATION)),
  StartMigration: changes(schemaTree(SchemaOp.START_MIGRATION)),
  StartAdvanceAndMigrate: changes(schemaTree(SchemaOp.START_ADVANCE_AND_MIGRATE)),
  GetSchemaOperationStatus: schemaOps(SchemaOp.GET_SCHEMA_OPERATION_STATUS),
  ListSchemaOperations: schemaOps(SchemaOp.LIST_SCHEMA_OPERATIONS),
  CancelSchemaOperation: changes(schemaOps(SchemaOp.CANCEL_SCHEMA_OPERATION)),
};

const DATA: Record<string, MethodAccess> = {
  ListTrees: { operation: DataOp.LIST_TREES, targetId: none },
  PutEntry: { operation: DataOp.PUT_ENTRY, targetId: treeId, changesState: true },
  PutEntries: { operation: DataOp.PUT_ENTRIES, targetId: treeId, changesState: true },
  GetEntry: { operation: DataOp.GET_ENTRY, targetId: treeId },
  DeleteEntry: { operation: DataOp.DELETE_ENTRY, targetId: treeId, changesState: true },
  ListEntries: { operation: DataOp.LIST_ENTRIES, targetId: treeId },
};

const IDENTITY: Record<string, MethodAccess> = {
  WhoAmI: { operation: IdentityOp.WHO_AM_I, targetId: none },
  ListAuditRecords: { operation: IdentityOp.LIST_AUDIT_RECORDS, targetId: none },
  ResolveSubjects: { operation: IdentityOp.RESOLVE_SUBJECTS, targetId: none },
};

/** A service family the interceptor guards, selected by service-name prefix. */
export interface GuardedService {
  prefix: string;
  methods: Readonly<Record<string, MethodAccess>>;
  /** What an unrecognised method is presented as (spec 001, rule 2). */
  unknownOperation: number;
  /** Methods that never reach the bridge or the authorizer. */
  exempt: readonly string[];
  /** Calls that act in no tenant may come without one (WhoAmI of a multi-tenant caller). */
  tenantOptional?: boolean;
}

export const BACKUP_SERVICE: GuardedService = {
  prefix: 'store.backup.',
  methods: BACKUP,
  unknownOperation: BackupOp.UNKNOWN,
  exempt: ['GetAuthScheme'],
};
export const SCHEMA_SERVICE: GuardedService = {
  prefix: 'store.schema.',
  methods: SCHEMA,
  unknownOperation: SchemaOp.UNKNOWN,
  exempt: ['GetAuthScheme'],
};
export const DATA_SERVICE: GuardedService = {
  prefix: 'store.data.',
  methods: DATA,
  unknownOperation: DataOp.UNSPECIFIED,
  exempt: [],
};
export const IDENTITY_SERVICE: GuardedService = {
  prefix: 'store.identity.',
  methods: IDENTITY,
  unknownOperation: IdentityOp.UNSPECIFIED,
  exempt: [],
  tenantOptional: true,
};

/** How a method of a guarded service is presented; unrecognised ones as the family's Unknown. */
export function accessOf(service: GuardedService, method: string): MethodAccess {
  return service.methods[method] ?? { operation: service.unknownOperation, targetId: none };
}
