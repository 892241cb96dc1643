// Issue 37: a restore is a bulk load, so it leaves the planner with statistics of `entries`
// (ANALYZE after the install transaction), although its rows stay far below the threshold
// PutEntries waits for and autovacuum is off on the test server.
import { afterEach, describe, expect, it } from 'vitest';
import { storeUnderTest } from '../../../../test/support/artifact-stores.js';
import { analyzedEntryRows } from '../../../../test/support/entry-statistics.js';
import { DIALECTS } from '../../../../test/support/test-storage.js';
import { storagePerTest } from '../../../../test/support/storage-per-test.js';
import { entryStatisticsSettled } from '../../../storage/data/planner-statistics.js';
import { TreeDataEngine } from '../../data/tree-data-engine.js';
import { OperationRunner } from '../../operations/operation-runner.js';
import type { OperationRecord } from '../../operations/types.js';
import { BackupEngine } from '../backup-engine.js';
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
    const runner = new OperationRunner({ storage, pollMs: 20 });
    const target = await storeUnderTest('directory');
    const engine = new BackupEngine({
      storage,
      runner,
      artifacts: target.open(storage.location.dataDir),
      schedulerMinIntervalMs: 1000,
      healthMonitoring: false,
    });
    runner.start();
    stops.push(() => runner.stop({ graceMs: 0 }));
    const finish = async (op: OperationRecord) => {
      for (;;) {
        const now = await runner.get(TENANT, op.id);
        if (now?.finishedAt) {
          if (now.state !== 'SUCCEEDED') throw new Error(`${now.state}: ${now.error?.message}`);
          return now.result;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };

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
