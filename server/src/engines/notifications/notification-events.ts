import { randomUUID } from 'node:crypto';
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
  const scope = row.target_id ?? '';
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
 * The runner's hook (recordWithEnd): writes the ended operation's event to the outbox in the
 * transaction that records the end, then tells `wake` (after commit is the caller's business:
 * a wake before commit only finds nothing due yet, and the next poll finds it).
 */
export function outboxOnOperationEnd(clock: () => number, wake: () => void) {
  return async (tx: TreeDb, row: OperationRow): Promise<void> => {
    const event = eventOfEndedOperation(row, clock());
    if (!event) return;
    const deliveries = await writeOutboxEvent(tx, { ...event, eventId: `evt_${randomUUID()}` });
    if (deliveries > 0) setImmediate(wake);
  };
}
