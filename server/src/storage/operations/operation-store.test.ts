import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import { OperationStore, type NewOperationRow, type ResumePolicy } from './operation-store.js';

const T0 = 1_700_000_000_000;
const LEASE = 10_000;
const POLICY: ResumePolicy = { resumableKinds: ['RESTORE'], maxAttempts: 3 };

function newRow(id: string, overrides: Partial<NewOperationRow> = {}): NewOperationRow {
  return {
    id,
    tenant: 'acme',
    kind: 'BACKUP',
    target_id: null,
    tracking_id: null,
    request_json: '{}',
    request_fingerprint: 'f',
    created_by: 'alice',
    created_at: T0,
    ...overrides,
  };
}

describe.each(DIALECTS)('OperationStore on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);

  async function open() {
    const storage = await freshStorage();
    return new OperationStore(storage);
  }

  /** Inserts a queued row and claims it for `owner`; returns its lease. */
  async function running(store: OperationStore, id: string, owner = 'a', kind = 'BACKUP') {
    await store.insertIfTrackingIdFree(newRow(id, { kind }));
    const row = await store.claim({ id, attempts: 0 }, owner, T0, LEASE, POLICY);
    expect(row?.state).toBe('RUNNING');
    return { id, owner, attempt: 1 };
  }

  it('keeps the first row of a tracking id and reads it back for later inserts', async () => {
    const store = await open();
    const first = await store.insertIfTrackingIdFree(newRow('op-1', { tracking_id: 't' }));
    const again = await store.insertIfTrackingIdFree(
      newRow('op-2', { tracking_id: 't', request_fingerprint: 'other' }),
    );
    expect(first).toMatchObject({ inserted: true, row: { id: 'op-1', state: 'QUEUED' } });
    expect(again).toMatchObject({ inserted: false, row: { id: 'op-1', request_fingerprint: 'f' } });
    expect(await store.get('acme', 'op-2')).toBeUndefined();
  });

  it('reads concurrently, each caller sees only its tenant and kinds, and sees writes made before', async () => {
    const store = await open();
    await store.insertIfTrackingIdFree(newRow('a1'));
    await store.insertIfTrackingIdFree(newRow('a2', { kind: 'RESTORE' }));
    await store.insertIfTrackingIdFree(newRow('b1', { tenant: 'other' }));
    const reads = await Promise.all([
      store.get('acme', 'a1'),
      store.get('acme', 'a2', ['RESTORE']),
      store.get('acme', 'a2', ['BACKUP']),
      store.get('acme', 'b1'),
      store.get('other', 'b1'),
      store.get('acme', 'a1'),
      store.get('acme', 'missing'),
    ]);
    expect(reads.map((row) => row?.id ?? null)).toEqual(['a1', 'a2', null, null, 'b1', 'a1', null]);
    expect(await store.cancel('acme', 'a1', T0)).toBeTruthy();
    const [after] = await Promise.all([store.get('acme', 'a1'), store.get('acme', 'a2')]);
    expect(after?.state).toBe('CANCELLED');
  });

  it('lets exactly one of two claimers with the same read win', async () => {
    const store = await open();
    await store.insertIfTrackingIdFree(newRow('op-1'));
    const [a, b] = await Promise.all([
      store.claim({ id: 'op-1', attempts: 0 }, 'a', T0, LEASE, POLICY),
      store.claim({ id: 'op-1', attempts: 0 }, 'b', T0, LEASE, POLICY),
    ]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    const winner = a ?? b;
    expect(winner).toMatchObject({ state: 'RUNNING', attempts: 1, lease_expires_at: T0 + LEASE });
    // A running row with a live lease cannot be claimed, even with the right attempt count.
    expect(
      await store.claim({ id: 'op-1', attempts: 1 }, 'c', T0 + 1, LEASE, POLICY),
    ).toBeUndefined();
  });

  it('reclaims an expired run only for a resumable, uncancelled kind with attempts left', async () => {
    const store = await open();
    await running(store, 'backup', 'a', 'BACKUP');
    await running(store, 'restore', 'a', 'RESTORE');
    const later = T0 + LEASE + 1;
    expect(
      await store.claim({ id: 'backup', attempts: 1 }, 'b', later, LEASE, POLICY),
    ).toBeUndefined();
    expect(
      await store.claim({ id: 'restore', attempts: 1 }, 'b', T0, LEASE, POLICY),
    ).toBeUndefined();
    const resumed = await store.claim({ id: 'restore', attempts: 1 }, 'b', later, LEASE, POLICY);
    expect(resumed).toMatchObject({ lease_owner: 'b', attempts: 2, started_at: T0 });
  });

  it('accepts guarded writes only from the current lease holder while RUNNING', async () => {
    const store = await open();
    const lease = await running(store, 'op-1');
    const progress = { done: 3, total: 9, unit: 'entries', message: 'm' };
    expect(await store.updateProgress({ ...lease, owner: 'x' }, progress, T0)).toBe(false);
    expect(await store.updateProgress({ ...lease, attempt: 2 }, progress, T0)).toBe(false);
    expect(await store.updateProgress(lease, progress, T0 + 1)).toBe(true);
    expect(await store.saveCheckpoint(lease, '{"k":1}', T0 + 2)).toBe(true);
    expect(await store.renew(lease, T0 + 3, LEASE)).toEqual({ held: true, cancelRequested: false });
    expect(await store.renew({ ...lease, owner: 'x' }, T0 + 3, LEASE)).toMatchObject({
      held: false,
    });
    const outcome = { state: 'SUCCEEDED' as const, resultJson: '{"ok":true}' };
    expect(await store.finish(lease, outcome, T0 + 4)).toBe(true);
    expect(await store.get('acme', 'op-1')).toMatchObject({
      state: 'SUCCEEDED',
      progress_done: 3,
      checkpoint_json: '{"k":1}',
      result_json: '{"ok":true}',
      finished_at: T0 + 4,
      lease_owner: null,
    });
    // Terminal: a second finish, a renew and a hand-back change nothing.
    expect(await store.finish(lease, { state: 'FAILED', errorCode: 'internal' }, T0 + 5)).toBe(
      false,
    );
    expect((await store.renew(lease, T0 + 5, LEASE)).held).toBe(false);
    expect(await store.handBack(lease, T0 + 5)).toBe(false);
    expect((await store.get('acme', 'op-1'))?.state).toBe('SUCCEEDED');
  });

  it('cancels queued at once, flags running, and leaves terminal records alone', async () => {
    const store = await open();
    await store.insertIfTrackingIdFree(newRow('queued'));
    const lease = await running(store, 'running');
    const queued = await store.cancel('acme', 'queued', T0 + 1);
    expect(queued).toMatchObject({ state: 'CANCELLED', cancel_requested: 1, finished_at: T0 + 1 });
    expect(
      await store.claim({ id: 'queued', attempts: 0 }, 'a', T0, LEASE, POLICY),
    ).toBeUndefined();
    const flagged = await store.cancel('acme', 'running', T0 + 2);
    expect(flagged).toMatchObject({ state: 'RUNNING', cancel_requested: 1, finished_at: null });
    expect(await store.renew(lease, T0 + 3, LEASE)).toEqual({ held: true, cancelRequested: true });
    expect(await store.cancelRequested(['running', 'queued', 'nope'])).toHaveLength(2);
    expect(await store.finish(lease, { state: 'CANCELLED' }, T0 + 4)).toBe(true);
    const after = await store.cancel('acme', 'running', T0 + 5);
    expect(after).toMatchObject({ state: 'CANCELLED', updated_at: T0 + 4 });
    expect(await store.cancel('globex', 'queued', T0)).toBeUndefined();
    expect(await store.cancel('acme', 'running', T0, ['RESTORE'])).toBeUndefined();
  });

  it('hands a run back to the queue, or ends it CANCELLED when a cancel was requested', async () => {
    const store = await open();
    const kept = await running(store, 'kept');
    const dropped = await running(store, 'dropped');
    await store.cancel('acme', 'dropped', T0 + 1);
    expect(await store.handBack(kept, T0 + 2)).toBe(true);
    expect(await store.handBack(dropped, T0 + 2)).toBe(true);
    expect(await store.get('acme', 'kept')).toMatchObject({
      state: 'QUEUED',
      lease_owner: null,
      lease_expires_at: null,
      finished_at: null,
      attempts: 1,
    });
    expect(await store.get('acme', 'dropped')).toMatchObject({
      state: 'CANCELLED',
      error_code: 'cancelled',
      finished_at: T0 + 2,
    });
  });

  it('ends expired runs that will not resume, with the reason', async () => {
    const store = await open();
    await running(store, 'backup', 'a', 'BACKUP');
    await running(store, 'restore', 'a', 'RESTORE');
    await running(store, 'cancelled', 'a', 'RESTORE');
    await running(store, 'worn-out', 'a', 'RESTORE');
    await running(store, 'live', 'a', 'BACKUP');
    await store.cancel('acme', 'cancelled', T0);
    // Interrupted again and again: each claim comes after the previous lease ran out.
    for (let attempts = 1; attempts < POLICY.maxAttempts; attempts++) {
      const at = T0 + (LEASE + 1) * attempts;
      expect(await store.claim({ id: 'worn-out', attempts }, 'b', at, LEASE, POLICY)).toBeDefined();
    }
    const now = T0 + 3 * LEASE + 10;
    await store.renew({ id: 'live', owner: 'a', attempt: 1 }, now - 1, LEASE);
    expect(await store.failOrphans(now, POLICY)).toBe(3);
    expect((await store.findExpired(now, 10)).map((r) => r.id)).toEqual(['restore']);
    expect(await store.get('acme', 'backup')).toMatchObject({
      state: 'FAILED',
      error_code: 'aborted',
      error_message: 'interrupted: the server running it stopped',
    });
    expect(await store.get('acme', 'cancelled')).toMatchObject({ state: 'CANCELLED' });
    expect((await store.get('acme', 'worn-out'))?.error_message).toMatch(/3 times; gave up/);
  });

  it('deletes only finished records that finished before the cutoff', async () => {
    const store = await open();
    const old = await running(store, 'old');
    await store.finish(old, { state: 'SUCCEEDED' }, T0);
    const recent = await running(store, 'recent');
    await store.finish(recent, { state: 'FAILED', errorCode: 'internal' }, T0 + 100);
    await store.insertIfTrackingIdFree(newRow('queued', { created_at: T0 - 1000 }));
    await running(store, 'running');
    expect(await store.deleteFinishedBefore(T0 + 50)).toBe(1);
    const left = await store.list('acme', { limit: 10 });
    expect(left.map((r) => r.id).sort()).toEqual(['queued', 'recent', 'running']);
  });
});
