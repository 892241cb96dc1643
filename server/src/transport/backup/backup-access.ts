import { StoreBackupApiOperation as BackupOp } from '@store/contract';
import {
  backupId,
  none,
  scopeTree,
  type GuardedService,
  type MethodAccess,
} from '../auth/method-access.js';
import type { Role } from '../../engines/identity/principal.js';

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

export const BACKUP_SERVICE: GuardedService = {
  prefix: 'store.backup.',
  methods: BACKUP,
  unknownOperation: BackupOp.UNKNOWN,
  exempt: ['GetAuthScheme'],
};

/** DESIGN.md §4: the least role of each operation under rbac (auth/authorizers.ts). */
export const BACKUP_LEAST_ROLE: ReadonlyMap<number, Role> = new Map<number, Role>([
  [BackupOp.LIST_BACKUPS, 'viewer'],
  [BackupOp.STREAM_BACKUPS, 'viewer'],
  [BackupOp.DESCRIBE_BACKUP, 'viewer'],
  [BackupOp.GET_SCOPE_STATUS, 'viewer'],
  [BackupOp.IS_HEALTH_MONITORING_AVAILABLE, 'viewer'],
  [BackupOp.GET_BACKUP_HEALTH, 'viewer'],
  [BackupOp.GET_BACKUP_OPERATION_STATUS, 'viewer'],
  [BackupOp.LIST_BACKUP_OPERATIONS, 'viewer'],
  // ProbeCapabilities is presented as Unknown; rbac allows Unknown only for it (see below).
  [BackupOp.CREATE_BACKUP, 'operator'],
  [BackupOp.CREATE_INCREMENTAL_BACKUP, 'operator'],
  [BackupOp.CREATE_BACKUP_SET, 'operator'],
  [BackupOp.START_BACKUP, 'operator'],
  [BackupOp.START_INCREMENTAL_BACKUP, 'operator'],
  [BackupOp.START_BACKUP_SET, 'operator'],
  [BackupOp.SCHEDULE_BACKUP, 'operator'],
  [BackupOp.CANCEL_SCHEDULE, 'operator'],
  [BackupOp.CHECK_BACKUP_HEALTH, 'operator'],
  [BackupOp.START_BACKUP_HEALTH_CHECK, 'operator'],
  [BackupOp.CONFIGURE_BACKUP_HEALTH, 'operator'],
  [BackupOp.EXPORT_ARTIFACT, 'operator'],
  [BackupOp.START_CATALOG_REBUILD, 'operator'],
  [BackupOp.CANCEL_BACKUP_OPERATION, 'operator'],
  [BackupOp.DELETE_BACKUP, 'admin'],
  [BackupOp.RESTORE_BACKUP, 'admin'],
  [BackupOp.START_RESTORE, 'admin'],
  [BackupOp.START_COLD_RESTORE, 'admin'],
  [BackupOp.REVERT_RESTORE, 'admin'],
  [BackupOp.START_CATALOG_SCRUB, 'admin'],
]);
