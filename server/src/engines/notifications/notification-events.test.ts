import { describe, expect, it } from 'vitest';
import type { OperationRow } from '../../storage/operations/operation-store.js';
import { eventOfEndedOperation } from './notification-events.js';

function ended(fields: Partial<OperationRow>): OperationRow {
  return {
    id: 'op-1',
    tenant: 'acme',
    kind: 'BACKUP',
    state: 'SUCCEEDED',
    target_id: 'orders',
    tracking_id: null,
    request_json: '{}',
    request_fingerprint: 'x',
    progress_done: 0,
    progress_total: 0,
    progress_unit: '',
    progress_message: '',
    created_at: 1,
    started_at: 1,
    updated_at: 2,
    finished_at: 2,
    cancel_requested: 0,
    error_code: null,
    error_message: null,
    created_by: 'admin',
    cancelled_by: null,
    result_json: null,
    lease_owner: null,
    lease_expires_at: null,
    attempts: 1,
    checkpoint_json: null,
    ...fields,
  } as OperationRow;
}

describe('the event an ended operation is', () => {
  it.each([
    [
      { kind: 'BACKUP', state: 'FAILED' as const, error_code: 'internal', error_message: 'disk' },
      'BACKUP_FAILED',
    ],
    [{ kind: 'INCREMENTAL_BACKUP', state: 'SUCCEEDED' as const }, 'BACKUP_SUCCEEDED'],
    [{ kind: 'BACKUP_SET', state: 'FAILED' as const, target_id: null }, 'BACKUP_FAILED'],
    [{ kind: 'RESTORE', state: 'FAILED' as const }, 'RESTORE_FAILED'],
    [{ kind: 'COLD_RESTORE', state: 'FAILED' as const }, 'RESTORE_FAILED'],
    [{ kind: 'BACKUP_HEALTH_CHECK', state: 'FAILED' as const }, 'VERIFY_FAILED'],
    [
      {
        kind: 'RETENTION_APPLY',
        state: 'SUCCEEDED' as const,
        result_json: JSON.stringify({
          treeName: 'orders',
          deletedBackupIds: ['b1', 'b2'],
          bytesFreed: 10,
        }),
      },
      'RETENTION_DELETED',
    ],
  ])('%o → %s', (fields, kind) => {
    const event = eventOfEndedOperation(ended(fields), 5);
    expect(event?.kind).toBe(kind);
    expect(event?.operationId).toBe('op-1');
    expect(event?.createdAt).toBe(5);
  });

  it.each([
    { kind: 'BACKUP', state: 'CANCELLED' as const },
    { kind: 'RESTORE', state: 'SUCCEEDED' as const },
    { kind: 'BACKUP_HEALTH_CHECK', state: 'SUCCEEDED' as const },
    {
      kind: 'RETENTION_APPLY',
      state: 'SUCCEEDED' as const,
      result_json: '{"deletedBackupIds":[]}',
    },
    { kind: 'COMPLIANCE_SCAN', state: 'FAILED' as const },
    { kind: 'RESTORE_DRILL', state: 'CANCELLED' as const },
    {
      kind: 'RESTORE_DRILL',
      state: 'SUCCEEDED' as const,
      result_json: JSON.stringify({ outcome: 'PROVEN', reason: 'restored 3 entries', backups: [] }),
    },
  ])('%o is none', (fields) => {
    expect(eventOfEndedOperation(ended(fields), 5)).toBeUndefined();
  });

  it('names a backup set as set:<name>', () => {
    const event = eventOfEndedOperation(
      ended({
        kind: 'BACKUP_SET',
        state: 'FAILED',
        target_id: null,
        request_json: JSON.stringify({ name: 'nightly', scopes: [] }),
      }),
      5,
    );
    expect(event?.scope).toBe('set:nightly');
    expect(event?.summary).toMatch(/^Backup of set:nightly failed/);
  });

  it('says what happened in one line', () => {
    const failed = eventOfEndedOperation(
      ended({ state: 'FAILED', error_code: 'internal', error_message: 'an internal error' }),
      5,
    );
    expect(failed?.summary).toBe('Backup of orders failed (internal: an internal error)');
    const retention = eventOfEndedOperation(
      ended({
        kind: 'RETENTION_APPLY',
        result_json: JSON.stringify({ treeName: 'orders', deletedBackupIds: ['b1', 'b2'] }),
      }),
      5,
    );
    expect(retention?.summary).toBe('Retention deleted 2 backup(s) of orders');
    expect(retention?.payload).toMatchObject({ deletedBackupIds: ['b1', 'b2'] });
  });

  it('a drill that found a difference is RESTORE_DRILL_FAILED, with the reason, backup and scope', () => {
    const event = eventOfEndedOperation(
      ended({
        kind: 'RESTORE_DRILL',
        state: 'SUCCEEDED',
        target_id: 'bk-1',
        request_json: JSON.stringify({ backupId: 'bk-1' }),
        result_json: JSON.stringify({
          outcome: 'FAILED',
          reasonKind: 'COUNT',
          reason: 'restored 29 entries, the capture recorded 30',
          firstDifferingKey: 'k007',
          backups: [
            {
              backupId: 'bk-1',
              treeName: 'orders',
              keyPrefix: 'eu/',
              outcome: 'FAILED',
              reasonKind: 'COUNT',
            },
          ],
        }),
      }),
      5,
    );
    expect(event).toMatchObject({
      kind: 'RESTORE_DRILL_FAILED',
      scope: 'orders',
      operationId: 'op-1',
      summary:
        'Restore drill of backup bk-1 of orders (prefix eu/) failed: restored 29 entries, the capture recorded 30',
      payload: {
        backupId: 'bk-1',
        treeName: 'orders',
        keyPrefix: 'eu/',
        reasonKind: 'COUNT',
        firstDifferingKey: 'k007',
      },
    });
  });

  it('a drill that could not finish is RESTORE_DRILL_FAILED too, with its error', () => {
    const event = eventOfEndedOperation(
      ended({
        kind: 'RESTORE_DRILL',
        state: 'FAILED',
        target_id: 'bk-2',
        request_json: JSON.stringify({ backupId: 'bk-2' }),
        error_code: 'not_found',
        error_message: 'backup bk-2 does not exist',
      }),
      5,
    );
    expect(event).toMatchObject({
      kind: 'RESTORE_DRILL_FAILED',
      summary:
        'Restore drill of backup bk-2 could not finish (not_found: backup bk-2 does not exist)',
      payload: { backupId: 'bk-2', reasonKind: 'NOT_FINISHED' },
    });
  });
});
