// Issue 37 bullet 3: a restore's installs keep the trees' live-entry counts exact — the load
// into the hidden tree (COPY on PostgreSQL), the copy of the rest of the tree around a
// restored prefix, a cold restore, and the drop of the replaced physical tree.
import { afterEach, describe, expect, it } from 'vitest';
import { startBackupEngine } from '../../../../test/support/backup-engine-under-test.js';
import { DIALECTS } from '../../../../test/support/test-storage.js';
import { storagePerTest } from '../../../../test/support/storage-per-test.js';
import { checkKeptCounts } from '../../../storage/data/kept-counts.js';
import { TreeDataEngine } from '../../data/tree-data-engine.js';
import type { CaptureResult, RestoreResult } from '../backup-types.js';

const TENANT = 'acme';
const WHO = { tenant: TENANT, createdBy: 'test' };

describe.each(DIALECTS)('kept entry counts through restores on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  it('stay exact after a prefix restore in place, a cold restore and a restore into a new tree', async () => {
    const storage = await freshStorage();
    const { engine, finish, stop } = await startBackupEngine(storage, TENANT);
    stops.push(stop);
    const data = new TreeDataEngine({ storage });
    const counts = async () => {
      expect(await checkKeptCounts(storage)).toEqual([]);
      const page = await data.listTrees(TENANT, { pageSize: 10 });
      return Object.fromEntries(page.trees.map((tree) => [tree.treeId, tree.entryCount]));
    };

    const keys = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({ key: `${prefix}${i}`, valueJson: `"${prefix}"` }));
    await data.putEntries(TENANT, 'inv', [...keys('a/', 20), ...keys('b/', 30)]);
    const full = (await finish(
      await engine.startCapture(
        WHO,
        { name: 'full', scope: { treeId: 'inv' }, pageSize: 0, labels: {} },
        false,
      ),
    )) as CaptureResult;
    for (let i = 0; i < 10; i++) await data.deleteEntry(TENANT, 'inv', `a/${i}`);
    await data.putEntries(TENANT, 'inv', [...keys('a/x', 5), ...keys('b/x', 7)]);
    expect(await counts()).toEqual({ inv: 20 - 10 + 5 + 30 + 7 });

    const prefixRestore = (await finish(
      await engine.startRestore(
        WHO,
        {
          backupId: full.backupId,
          mode: 'IN_PLACE',
          scope: { treeId: 'inv', keyPrefix: 'a/' },
          applyBatchSize: 0,
        },
        false,
      ),
    )) as RestoreResult;
    expect(prefixRestore.entriesApplied).toBe(20);
    expect(await counts()).toEqual({ inv: 20 + 30 + 7 });

    await finish(
      await engine.startRestore(
        WHO,
        { backupId: full.backupId, mode: 'IN_PLACE', applyBatchSize: 7 },
        true,
      ),
    );
    await finish(
      await engine.startRestore(
        WHO,
        { backupId: full.backupId, mode: 'NEW_TREE', targetTreeId: 'copy', applyBatchSize: 0 },
        false,
      ),
    );
    expect(await counts()).toEqual({ inv: 50, copy: 50 });
  }, 60_000);

  // Issue 37 bullet 6: the full backup at a chain's head is loaded with the counts added by the
  // loader (SQLite) or the COPY's statement trigger (PostgreSQL); the incrementals after it
  // overwrite, delete and re-add keys through the upsert path. The restored tree's counts must
  // equal count(*), with applyBatchSize small enough for many load batches.
  it('stay exact after restoring a chain whose incrementals overwrite, delete and re-add', async () => {
    const storage = await freshStorage();
    const { engine, finish, stop } = await startBackupEngine(storage, TENANT);
    stops.push(stop);
    const data = new TreeDataEngine({ storage });
    const capture = async (base: string | null) =>
      (
        (await finish(
          await engine.startCapture(
            WHO,
            {
              name: base ? 'inc' : 'full',
              scope: { treeId: 'chain' },
              pageSize: 0,
              labels: {},
              ...(base && { baseBackupId: base }),
            },
            base !== null,
          ),
        )) as CaptureResult
      ).backupId;

    // Multi-byte keys and values, so the loader's byte tally is checked too.
    const put = (keys: number[], value: string) =>
      data.putEntries(
        TENANT,
        'chain',
        keys.map((i) => ({ key: `k/é${i}`, valueJson: JSON.stringify(`${value}😀${i}`) })),
      );
    const range = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => from + i);
    await put(range(0, 120), 'v1');
    let backup = await capture(null);
    await put(range(0, 40), 'v2-longer');
    for (const i of range(100, 120)) await data.deleteEntry(TENANT, 'chain', `k/é${i}`);
    backup = await capture(backup);
    await put(range(110, 130), 'v3');
    for (const i of range(0, 5)) await data.deleteEntry(TENANT, 'chain', `k/é${i}`);
    backup = await capture(backup);
    const live = (await data.listTrees(TENANT, { pageSize: 10 })).trees[0]?.entryCount;
    expect(live).toBe(120 - 20 + 20 - 5);

    const restored = (await finish(
      await engine.startRestore(
        WHO,
        { backupId: backup, mode: 'NEW_TREE', targetTreeId: 'again', applyBatchSize: 9 },
        false,
      ),
    )) as RestoreResult;
    expect(restored.manifestChain).toHaveLength(3);
    expect(await checkKeptCounts(storage)).toEqual([]);
    const page = await data.listTrees(TENANT, { pageSize: 10 });
    expect(Object.fromEntries(page.trees.map((t) => [t.treeId, t.entryCount]))).toEqual({
      chain: live,
      again: live,
    });
  }, 60_000);
});
