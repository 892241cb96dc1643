import { StoreBackupInsightApiOperation as InsightOp } from '@store/contract';
import type { Role } from '../../engines/identity/principal.js';
import type { GuardedService, MethodAccess } from '../auth/method-access.js';

const none = (): null => null;
/** The tree of a request's scope selector, as ScheduleBackup's target is (DESIGN.md §4). */
const scopeTree = (request: unknown) => {
  const scope = (request as { scope?: { treeId?: unknown } } | undefined)?.scope;
  return typeof scope?.treeId === 'string' ? scope.treeId : null;
};
const field = (name: string) => (request: unknown) => {
  const value = (request as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : null;
};

/** BackupInsightService (issue 16): a start's target is the backup it reads (the "after" side). */
const METHODS: Record<string, MethodAccess> = {
  // Starts and cancels are audited (issue 18) though they change no data: they start someone's run.
  StartRestorePreview: {
    operation: InsightOp.START_RESTORE_PREVIEW,
    targetId: field('backupId'),
    changesState: true,
    startsPreview: true,
  },
  StartBackupDiff: {
    operation: InsightOp.START_BACKUP_DIFF,
    targetId: field('toBackupId'),
    changesState: true,
    startsPreview: true,
  },
  // A revert preview's target is the restore it previews.
  StartRevertPreview: {
    operation: InsightOp.START_REVERT_PREVIEW,
    targetId: field('restoreOperationId'),
    changesState: true,
    startsPreview: true,
  },
  GetBackupComparison: { operation: InsightOp.GET_BACKUP_COMPARISON, targetId: none },
  ListBackupDifferences: { operation: InsightOp.LIST_BACKUP_DIFFERENCES, targetId: none },
  GetBackupInsightOperationStatus: {
    operation: InsightOp.GET_BACKUP_INSIGHT_OPERATION_STATUS,
    targetId: none,
  },
  ListBackupInsightOperations: {
    operation: InsightOp.LIST_BACKUP_INSIGHT_OPERATIONS,
    targetId: none,
  },
  CancelBackupInsightOperation: {
    operation: InsightOp.CANCEL_BACKUP_INSIGHT_OPERATION,
    targetId: none,
    changesState: true,
  },
  GetCatalogSummary: { operation: InsightOp.GET_CATALOG_SUMMARY, targetId: none },
  // Writes a fresh health report and catalog badge per backup, as StartBackupHealthCheck does.
  StartStaleHealthCheck: {
    operation: InsightOp.START_STALE_HEALTH_CHECK,
    targetId: field('treeId'),
    changesState: true,
  },
  // Schedules overview: the list is the tenant's; a scope's settings change its schedules.
  ListSchedules: { operation: InsightOp.LIST_SCHEDULES, targetId: none },
  ConfigureScheduleExtras: {
    operation: InsightOp.CONFIGURE_SCHEDULE_EXTRAS,
    targetId: scopeTree,
    changesState: true,
  },
  // Preview storage: changes how long a comparison's differences are stored.
  KeepBackupComparison: {
    operation: InsightOp.KEEP_BACKUP_COMPARISON,
    targetId: field('operationId'),
    changesState: true,
  },
};

/**
 * The service's own prefix (its full name), not the package's: the schema-insight service shares
 * `store.insight.v1` and has its own interceptor and operations.
 */
export const BACKUP_INSIGHT_SERVICE: GuardedService = {
  prefix: 'store.insight.v1.BackupInsightService',
  methods: METHODS,
  unknownOperation: InsightOp.UNSPECIFIED,
  exempt: [],
};

/**
 * Least roles (issue 16: previews and diffs need viewer). They read and change nothing, so
 * cancelling one needs no more than starting it.
 */
export const BACKUP_INSIGHT_LEAST_ROLE: ReadonlyMap<number, Role> = new Map<number, Role>([
  [InsightOp.START_RESTORE_PREVIEW, 'viewer'],
  [InsightOp.START_BACKUP_DIFF, 'viewer'],
  // As a restore preview: it shows data the viewer may read (the tree, and what it held before).
  [InsightOp.START_REVERT_PREVIEW, 'viewer'],
  [InsightOp.GET_BACKUP_COMPARISON, 'viewer'],
  // Viewer for keys, changes and counts; the values need operator, checked by the handler
  // (docs/security.md, "Preview storage").
  [InsightOp.LIST_BACKUP_DIFFERENCES, 'viewer'],
  [InsightOp.GET_BACKUP_INSIGHT_OPERATION_STATUS, 'viewer'],
  [InsightOp.LIST_BACKUP_INSIGHT_OPERATIONS, 'viewer'],
  [InsightOp.CANCEL_BACKUP_INSIGHT_OPERATION, 'viewer'],
  [InsightOp.GET_CATALOG_SUMMARY, 'viewer'],
  // Operator, like StartBackupHealthCheck: it writes every checked backup's health report.
  [InsightOp.START_STALE_HEALTH_CHECK, 'operator'],
  [InsightOp.LIST_SCHEDULES, 'viewer'],
  // The same grant as ScheduleBackup: it changes when and how the scope's schedules run.
  [InsightOp.CONFIGURE_SCHEDULE_EXTRAS, 'operator'],
  // Admin: a kept comparison holds its differences past their expiry, against the tenant's
  // preview storage cap, a storage decision for the tenant's admin.
  [InsightOp.KEEP_BACKUP_COMPARISON, 'admin'],
]);
