import { randomUUID } from 'node:crypto';
import { backupNamesByIds, getBackupRow } from '../../storage/backup/backup-store.js';
import type { TreeDb } from '../../storage/data/tree-db.js';
import type { OperationRow } from '../../storage/operations/operation-store.js';
import { writeOutboxEvent, type OutboxEvent } from '../../storage/notifications/outbox-store.js';

/** What a channel can be told about: the proto's NotificationEvent names without the prefix. */
export const CHOOSABLE_EVENTS = [
  'BACKUP_FAILED',
  'RESTORE_FAILED',
  'VERIFY_FAILED',
  'BACKUP_SUCCEEDED',
  'BACKUP_OVERDUE',
  'BACKUP_CORRUPT',
  'RETENTION_DELETED',
  'DEAD_LETTERS_OVER_THRESHOLD',
  'OPERATION_STUCK',
  'RESTORE_DRILL_FAILED',
] as const;
export type ChoosableEvent = (typeof CHOOSABLE_EVENTS)[number];
export type NotificationEventName = ChoosableEvent | 'TEST';

const CAPTURES = new Set(['BACKUP', 'INCREMENTAL_BACKUP', 'BACKUP_SET']);
const RESTORES = new Set(['RESTORE', 'COLD_RESTORE']);

function parsed(json: string | null): Record<string, unknown> {
  if (!json) return {};
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The event an ended operation is, if any (a cancel, or an uneventful success, is none). */
export function eventOfEndedOperation(
  row: OperationRow,
  now: number,
): Omit<OutboxEvent, 'eventId'> | undefined {
  // A set has no target: it is named "set:<name>", as the metrics and alerts name it.
  const setName = row.kind === 'BACKUP_SET' ? parsed(row.request_json).name : undefined;
  const scope = typeof setName === 'string' ? `set:${setName}` : (row.target_id ?? '');
  const base = { tenant: row.tenant, scope, operationId: row.id, createdAt: now };
  const where = scope ? ` of ${scope}` : '';
  const error = `${row.error_code ?? 'failed'}: ${row.error_message ?? ''}`;
  const failure = { operationKind: row.kind, errorCode: row.error_code, error: row.error_message };
  if (CAPTURES.has(row.kind)) {
    if (row.state === 'FAILED') {
      return {
        ...base,
        kind: 'BACKUP_FAILED',
        summary: `Backup${where} failed (${error})`,
        payload: failure,
      };
    }
    if (row.state === 'SUCCEEDED') {
      const result = parsed(row.result_json);
      return {
        ...base,
        kind: 'BACKUP_SUCCEEDED',
        summary: `Backup${where} succeeded`,
        payload: { operationKind: row.kind, backupId: result.backupId ?? null },
      };
    }
  }
  if (RESTORES.has(row.kind) && row.state === 'FAILED') {
    return {
      ...base,
      kind: 'RESTORE_FAILED',
      summary: `Restore${where} failed (${error})`,
      payload: failure,
    };
  }
  // A corrupt verdict is notified where it is stored (saveHealthReport), whichever path checked.
  if (row.kind === 'BACKUP_HEALTH_CHECK' && row.state === 'FAILED') {
    return {
      ...base,
      kind: 'VERIFY_FAILED',
      summary: `Health check${where} failed (${error})`,
      payload: failure,
    };
  }
  if (row.kind === 'RESTORE_DRILL') return drillFailure(row, base, error);
  if (row.kind === 'RETENTION_APPLY' && row.state === 'SUCCEEDED') {
    const result = parsed(row.result_json);
    const deleted = Array.isArray(result.deletedBackupIds) ? result.deletedBackupIds : [];
    if (deleted.length > 0) {
      const tree = typeof result.treeName === 'string' ? result.treeName : scope;
      return {
        ...base,
        scope: tree,
        kind: 'RETENTION_DELETED',
        summary: `Retention deleted ${deleted.length} backup(s) of ${tree}`,
        payload: { deletedBackupIds: deleted, bytesFreed: result.bytesFreed ?? 0 },
      };
    }
  }
  return undefined;
}

/**
 * A drill that ended FAILED, in either way: it ran and found a backup that does not restore into
 * what it captured (the operation succeeded, its result says FAILED and why), or it could not run
 * to the end (the operation failed). Its scope is the failing backup's tree, as the metrics and
 * the "not proven" alert name it (for one that could not finish, read from the catalog in the
 * hook); a PROVEN or cancelled drill is no event.
 */
function drillFailure(
  row: OperationRow,
  base: Omit<OutboxEvent, 'eventId' | 'kind' | 'summary' | 'payload'>,
  error: string,
): Omit<OutboxEvent, 'eventId'> | undefined {
  const request = parsed(row.request_json);
  const setId = typeof request.setId === 'string' ? request.setId : null;
  if (row.state === 'FAILED') {
    const what = setId ? `set ${setId}` : `backup ${row.target_id ?? ''}`;
    return {
      ...base,
      scope: '',
      kind: 'RESTORE_DRILL_FAILED',
      summary: `Restore drill of ${what} could not finish (${error})`,
      payload: {
        backupId: typeof request.backupId === 'string' ? request.backupId : null,
        setId,
        reasonKind: 'NOT_FINISHED',
        reason: row.error_message ?? 'failed',
        errorCode: row.error_code,
      },
    };
  }
  if (row.state !== 'SUCCEEDED') return undefined;
  const result = parsed(row.result_json);
  if (result.outcome !== 'FAILED') return undefined;
  const backups = Array.isArray(result.backups) ? (result.backups as unknown[]) : [];
  const failed = backups
    .map((b) => (typeof b === 'object' && b !== null ? (b as Record<string, unknown>) : {}))
    .find((b) => b.outcome === 'FAILED');
  const backupId = typeof failed?.backupId === 'string' ? failed.backupId : null;
  const treeName = typeof failed?.treeName === 'string' ? failed.treeName : '';
  const keyPrefix = typeof failed?.keyPrefix === 'string' ? failed.keyPrefix : '';
  const reason = typeof result.reason === 'string' ? result.reason : 'the drill failed';
  const scopeWords = keyPrefix ? `${treeName} (prefix ${keyPrefix})` : treeName;
  return {
    ...base,
    scope: treeName,
    kind: 'RESTORE_DRILL_FAILED',
    summary: `Restore drill of backup ${backupId ?? '?'} of ${scopeWords} failed: ${reason}`,
    payload: {
      backupId,
      backupName: null,
      setId,
      treeName,
      keyPrefix,
      reasonKind: typeof result.reasonKind === 'string' ? result.reasonKind : 'NONE',
      reason,
      firstDifferingKey:
        typeof result.firstDifferingKey === 'string' ? result.firstDifferingKey : null,
    },
  };
}

/**
 * A drill's failed backup by its name too (the catalog's, or retention's record of it; none for
 * a backup deleted by hand), and, for a drill that could not finish, its tree as the scope.
 */
async function withBackupName(
  tx: TreeDb,
  event: Omit<OutboxEvent, 'eventId'>,
): Promise<Omit<OutboxEvent, 'eventId'>> {
  const backupId = event.payload.backupId;
  if (event.kind !== 'RESTORE_DRILL_FAILED' || typeof backupId !== 'string') return event;
  const name = (await backupNamesByIds(tx, event.tenant, [backupId])).get(backupId) ?? null;
  const scope = event.scope || ((await getBackupRow(tx, event.tenant, backupId))?.treeName ?? '');
  return { ...event, scope, payload: { ...event.payload, backupName: name } };
}

/**
 * The runner's hook (recordWithEnd): writes the ended operation's event to the outbox in the
 * transaction that records the end, then tells `wake` (after commit is the caller's business:
 * a wake before commit only finds nothing due yet, and the next poll finds it).
 */
export function outboxOnOperationEnd(clock: () => number, wake: () => void) {
  return async (tx: TreeDb, row: OperationRow): Promise<void> => {
    const found = eventOfEndedOperation(row, clock());
    if (!found) return;
    const event = await withBackupName(tx, found);
    const deliveries = await writeOutboxEvent(tx, { ...event, eventId: `evt_${randomUUID()}` });
    if (deliveries > 0) setImmediate(wake);
  };
}
