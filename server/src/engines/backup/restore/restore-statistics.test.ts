// Issue 37: a restore is a bulk load, so it leaves the planner with statistics of `entries`
// (ANALYZE after the install transaction), although its rows stay far below the threshold
// PutEntries waits for and autovacuum is off on the test server.
import { afterEach, describe, expect, it } from 'vitest';
import { startBackupEngine } from '../../../../test/support/backup-engine-under-test.js';
import { analyzedEntryRows } from '../../../../test/support/entry-statistics.js';
import { DIALECTS } from '../../../../test/support/test-storage.js';
import { storagePerTest } from '../../../../test/support/storage-per-test.js';
import { entryStatisticsSettled } from '../../../storage/data/planner-statistics.js';
import { TreeDataEngine } from '../../data/tree-data-engine.js';
import type { CaptureResult, RestoreResult } from '../backup-types.js';

const TENANT = 'acme';
const WHO = { tenant: TENANT, createdBy: 'test' };
const ENTRIES = 200;

describe.each(DIALECTS)('planner statistics after a restore on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  it('analyzes entries after a restore into a new tree', async () => {
    const storage = await freshStorage();
    const { engine, finish, stop } = await startBackupEngine(storage, TENANT);
    stops.push(stop);

    const data = new TreeDataEngine({ storage });
    await data.putEntries(
      TENANT,
      'source',
      Array.from({ length: ENTRIES }, (_, i) => ({ key: `k${i}`, valueJson: `${i}` })),
    );
    const capture = (await finish(
      await engine.startCapture(
        WHO,
        { name: 'full', scope: { treeId: 'source' }, pageSize: 0, labels: {} },
        false,
      ),
    )) as CaptureResult;
    await entryStatisticsSettled(storage);
    expect(await analyzedEntryRows(storage)).toBeUndefined();

    const restored = (await finish(
      await engine.startRestore(
        WHO,
        { backupId: capture.backupId, mode: 'NEW_TREE', targetTreeId: 'copy', applyBatchSize: 0 },
        false,
      ),
    )) as RestoreResult;
    expect(restored.entriesApplied).toBe(ENTRIES);
    await entryStatisticsSettled(storage);
    const rows = await analyzedEntryRows(storage);
    // Both trees' rows; PostgreSQL reads a table this small whole, SQLite samples and estimates.
    if (dialect === 'postgres') expect(rows).toBe(2 * ENTRIES);
    else expect(rows).toBeGreaterThan(0);
  }, 60_000);
});
