import { StoreBackupInsightApiOperation as InsightOp } from '@store/contract';
import type { Role } from '../../engines/identity/principal.js';
import type { GuardedService, MethodAccess } from './operation-maps.js';

const none = (): null => null;
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
  },
  StartBackupDiff: {
    operation: InsightOp.START_BACKUP_DIFF,
    targetId: field('toBackupId'),
    changesState: true,
  },
  // A revert preview's target is the restore it previews.
  StartRevertPreview: {
    operation: InsightOp.START_REVERT_PREVIEW,
    targetId: field('restoreOperationId'),
    changesState: true,
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
  [InsightOp.LIST_BACKUP_DIFFERENCES, 'viewer'],
  [InsightOp.GET_BACKUP_INSIGHT_OPERATION_STATUS, 'viewer'],
  [InsightOp.LIST_BACKUP_INSIGHT_OPERATIONS, 'viewer'],
  [InsightOp.CANCEL_BACKUP_INSIGHT_OPERATION, 'viewer'],
]);
