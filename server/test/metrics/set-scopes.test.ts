// Issue 35, bullet 1: backup sets have a scope of their own in the metrics, `set:<name>`.
import { StoreOperationState } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/test-storage.js';
import { startBackupServer, type BackupServer } from '../backup/backup-fixture.js';
import { samplesOf, scrape, valueOf } from './scrape.js';

const MAX_SCOPES = 3;

describe.each(DIALECTS)('backup sets in the metrics on %s', (dialect) => {
  let s: BackupServer;
  let setEnd: number;
  beforeAll(async () => {
    s = await startBackupServer(dialect, {
      STORE_METRICS_PORT: '0',
      STORE_METRICS_MAX_SCOPES: String(MAX_SCOPES),
    });
    await s.put('orders', { a: 1 });
    await s.put('users', { b: 2 });
    const set = await s.backup.startBackupSet({
      name: 'nightly all',
      scopes: [{ treeId: 'orders' }, { treeId: 'users' }],
      crossTreeConsistent: true,
    });
    const status = await s.finish(set.operationId);
    expect(status.state).toBe(StoreOperationState.SUCCEEDED);
    const members = await s.backup.listBackups({});
    setEnd = Math.max(...members.backups.map((b) => Number(b.completedAt?.seconds)));
    // A one-tree "set" stamps no set id (spec 000, Resources rule 1): a plain backup of the tree.
    const single = await s.backup.startBackupSet({
      name: 'just orders',
      scopes: [{ treeId: 'orders' }],
      crossTreeConsistent: true,
    });
    expect((await s.finish(single.operationId)).state).toBe(StoreOperationState.SUCCEEDED);
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  it("labels a set's newest success scope=set:<name>, its members still their trees'", async () => {
    const { samples } = await scrape(s.t.server.metricsUrl);
    const lastSuccess = (scope: string) =>
      valueOf(samples, 'store_backup_last_success_timestamp_seconds', { tenant: 'default', scope });
    expect(Math.floor(lastSuccess('set:nightly all') ?? 0)).toBe(setEnd);
    // The trees stay watched (their schedules' overdue alert reads them): a set member is a
    // backup of its tree.
    expect(lastSuccess('users')).toBe(lastSuccess('set:nightly all'));
    expect(lastSuccess('orders')).toBeGreaterThanOrEqual(lastSuccess('set:nightly all') ?? 0);
    expect(lastSuccess('set:just orders')).toBeUndefined();
    // No schedule is ever a set's: no cadence, so the overdue alert never judges one.
    expect(samplesOf(samples, 'store_schedule_cadence_seconds')).toEqual([]);
  });

  it('counts set scopes within STORE_METRICS_MAX_SCOPES like trees', async () => {
    await s.put('zebra', { c: 3 });
    const zebra = await s.backup.startBackup({ name: 'z', scope: { treeId: 'zebra' } });
    expect((await s.finish(zebra.operationId)).state).toBe(StoreOperationState.SUCCEEDED);
    const { samples } = await scrape(s.t.server.metricsUrl);
    const scopes = samplesOf(samples, 'store_backup_last_success_timestamp_seconds').map(
      (sample) => sample.labels.scope,
    );
    // Four scopes (orders, set:nightly all, users, zebra), three exported, one dropped.
    expect(scopes).toHaveLength(MAX_SCOPES);
    expect(scopes).toContain('set:nightly all');
    expect(valueOf(samples, 'store_metrics_scopes_dropped')).toBe(1);
  });
});
