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
  CreateBackup: { operation: BackupOp.CREATE_BACKUP, targetId: scopeTree },
  CreateIncrementalBackup: { operation: BackupOp.CREATE_INCREMENTAL_BACKUP, targetId: scopeTree },
  CreateBackupSet: { operation: BackupOp.CREATE_BACKUP_SET, targetId: none },
  ListBackups: { operation: BackupOp.LIST_BACKUPS, targetId: none },
  StreamBackups: { operation: BackupOp.STREAM_BACKUPS, targetId: none },
  DescribeBackup: { operation: BackupOp.DESCRIBE_BACKUP, targetId: backupId },
  DeleteBackup: { operation: BackupOp.DELETE_BACKUP, targetId: backupId },
  RestoreBackup: { operation: BackupOp.RESTORE_BACKUP, targetId: backupId },
  RevertRestore: { operation: BackupOp.REVERT_RESTORE, targetId: backupId },
  ExportArtifact: { operation: BackupOp.EXPORT_ARTIFACT, targetId: backupId },
  ScheduleBackup: { operation: BackupOp.SCHEDULE_BACKUP, targetId: scopeTree },
  CancelSchedule: { operation: BackupOp.CANCEL_SCHEDULE, targetId: scopeTree },
  GetScopeStatus: { operation: BackupOp.GET_SCOPE_STATUS, targetId: scopeTree },
  IsHealthMonitoringAvailable: {
    operation: BackupOp.IS_HEALTH_MONITORING_AVAILABLE,
    targetId: none,
  },
  CheckBackupHealth: { operation: BackupOp.CHECK_BACKUP_HEALTH, targetId: backupId },
  GetBackupHealth: { operation: BackupOp.GET_BACKUP_HEALTH, targetId: backupId },
  ConfigureBackupHealth: { operation: BackupOp.CONFIGURE_BACKUP_HEALTH, targetId: backupId },
  StartBackup: { operation: BackupOp.START_BACKUP, targetId: scopeTree },
  StartIncrementalBackup: { operation: BackupOp.START_INCREMENTAL_BACKUP, targetId: scopeTree },
  StartBackupSet: { operation: BackupOp.START_BACKUP_SET, targetId: none },
  StartRestore: { operation: BackupOp.START_RESTORE, targetId: backupId },
  StartColdRestore: { operation: BackupOp.START_COLD_RESTORE, targetId: backupId },
  GetBackupOperationStatus: { operation: BackupOp.GET_BACKUP_OPERATION_STATUS, targetId: none },
  ListBackupOperations: { operation: BackupOp.LIST_BACKUP_OPERATIONS, targetId: none },
  CancelBackupOperation: { operation: BackupOp.CANCEL_BACKUP_OPERATION, targetId: none },
  StartBackupHealthCheck: { operation: BackupOp.START_BACKUP_HEALTH_CHECK, targetId: backupId },
  StartCatalogRebuild: { operation: BackupOp.START_CATALOG_REBUILD, targetId: none },
  StartCatalogScrub: { operation: BackupOp.START_CATALOG_SCRUB, targetId: none },
  // No dedicated value: presented as Unknown (spec 000, Operation enum).
  ProbeCapabilities: { operation: BackupOp.UNKNOWN, targetId: none },
};

const schemaTree = (operation: SchemaOp): MethodAccess => ({ operation, targetId: treeId });
const schemaOps = (operation: SchemaOp): MethodAccess => ({ operation, targetId: none });

/** Spec 001: every tree RPC's target is the tree id as sent; operation RPCs have none. */
const SCHEMA: Record<string, MethodAccess> = {
  SetPolicy: schemaTree(SchemaOp.SET_POLICY),
  ClearPolicy: schemaTree(SchemaOp.CLEAR_POLICY),
  GetPolicy: schemaTree(SchemaOp.GET_POLICY),
  StreamDeadLetters: schemaTree(SchemaOp.STREAM_DEAD_LETTERS),
  CountDeadLetters: schemaTree(SchemaOp.COUNT_DEAD_LETTERS),
  SetVersionConfig: schemaTree(SchemaOp.SET_VERSION_CONFIG),
  GetVersionConfig: schemaTree(SchemaOp.GET_VERSION_CONFIG),
  AdvanceTargetVersion: schemaTree(SchemaOp.ADVANCE_TARGET_VERSION),
  AdvanceAndMigrate: schemaTree(SchemaOp.ADVANCE_AND_MIGRATE),
  MigrateToTargetVersion: schemaTree(SchemaOp.MIGRATE_TO_TARGET_VERSION),
  ClearVersionConfig: schemaTree(SchemaOp.CLEAR_VERSION_CONFIG),
  Remediate: schemaTree(SchemaOp.REMEDIATE),
  GetRemediationStatus: schemaTree(SchemaOp.GET_REMEDIATION_STATUS),
  ScanCompliance: schemaTree(SchemaOp.SCAN_COMPLIANCE),
  ProbeCapabilities: schemaTree(SchemaOp.PROBE_CAPABILITIES),
  StartComplianceScan: schemaTree(SchemaOp.START_COMPLIANCE_SCAN),
  GetComplianceScanStatus: schemaOps(SchemaOp.GET_COMPLIANCE_SCAN_STATUS),
  ListComplianceScans: schemaOps(SchemaOp.LIST_COMPLIANCE_SCANS),
  CancelComplianceScan: schemaOps(SchemaOp.CANCEL_COMPLIANCE_SCAN),
  StartRemediation: schemaTree(SchemaOp.START_REMEDIATION),
  StartMigration: schemaTree(SchemaOp.START_MIGRATION),
  StartAdvanceAndMigrate: schemaTree(SchemaOp.START_ADVANCE_AND_MIGRATE),
  GetSchemaOperationStatus: schemaOps(SchemaOp.GET_SCHEMA_OPERATION_STATUS),
  ListSchemaOperations: schemaOps(SchemaOp.LIST_SCHEMA_OPERATIONS),
  CancelSchemaOperation: schemaOps(SchemaOp.CANCEL_SCHEMA_OPERATION),
};

const DATA: Record<string, MethodAccess> = {
  ListTrees: { operation: DataOp.LIST_TREES, targetId: none },
  PutEntry: { operation: DataOp.PUT_ENTRY, targetId: treeId },
  GetEntry: { operation: DataOp.GET_ENTRY, targetId: treeId },
  DeleteEntry: { operation: DataOp.DELETE_ENTRY, targetId: treeId },
  ListEntries: { operation: DataOp.LIST_ENTRIES, targetId: treeId },
};

const IDENTITY: Record<string, MethodAccess> = {
  WhoAmI: { operation: IdentityOp.WHO_AM_I, targetId: none },
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
