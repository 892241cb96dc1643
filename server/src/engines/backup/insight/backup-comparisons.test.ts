import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../../test/support/test-storage.js';
import { storagePerTest } from '../../../../test/support/storage-per-test.js';
import type { StoredDifference } from '../../../storage/backup/backup-comparison-store.js';
import { TreeDataEngine } from '../../data/tree-data-engine.js';
import { OperationRunner } from '../../operations/operation-runner.js';
import type { OperationRecord } from '../../operations/types.js';
import type { DirectoryArtifactStore } from '../artifacts/index.js';
import { BackupEngine } from '../backup-engine.js';
import type { CaptureResult, RestoreRequest } from '../backup-types.js';
import { BackupComparisons } from './backup-comparisons.js';
import type { ComparisonReport } from './comparison-types.js';

const TENANT = 'acme';
const WHO = { tenant: TENANT, createdBy: 'test' };

type Tree = Map<string, { value: string; schemaVersion: number }>;

/** What changes between two states of a tree, key by key, as the preview and diff report it. */
function expectedDifferences(before: Tree, after: Tree): StoredDifference[] {
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort((x, y) =>
    Buffer.compare(Buffer.from(x), Buffer.from(y)),
  );
  const out: StoredDifference[] = [];
  for (const key of keys) {
    const b = before.get(key);
    const a = after.get(key);
    if (b && a && b.value === a.value && b.schemaVersion === a.schemaVersion) continue;
    out.push({
      key,
      change: !b ? 'ADDED' : !a ? 'REMOVED' : 'CHANGED',
      beforeJson: b?.value ?? null,
      afterJson: a?.value ?? null,
      beforeSchemaVersion: b?.schemaVersion ?? 0,
      afterSchemaVersion: a?.schemaVersion ?? 0,
    });
  }
  return out;
}

function unchangedCount(before: Tree, after: Tree): number {
  let n = 0;
  for (const [key, b] of before) {
    const a = after.get(key);
    if (a && a.value === b.value && a.schemaVersion === b.schemaVersion) n += 1;
  }
  return n;
}

describe.each(DIALECTS)('restore previews and backup diffs on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(
    afterPage?: () => Promise<void>,
    retentionMs?: number,
    readWholeTree?: boolean,
  ) {
    const storage = await freshStorage();
    const runner = new OperationRunner({ storage, pollMs: 20, retentionMs });
    const engine = new BackupEngine({
      storage,
      runner,
      artifacts: join(storage.location.dataDir, 'artifacts'),
      schedulerMinIntervalMs: 1000,
      healthMonitoring: false,
    });
    // Small pages, so the differences cross page boundaries on these small trees.
    const insight = new BackupComparisons({
      storage,
      artifacts: engine.artifacts,
      runner,
      pageSize: 7,
      afterPage,
      readWholeTree,
    });
    runner.start();
    cleanups.push(() => runner.stop({ graceMs: 0 }));
    const data = new TreeDataEngine({ storage });
    const settle = async (op: OperationRecord) => {
      for (;;) {
        const now = await runner.get(TENANT, op.id);
        if (now?.finishedAt) return now;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const finish = async (op: OperationRecord) => {
      const done = await settle(op);
      if (done.state !== 'SUCCEEDED') throw new Error(`${done.state}: ${done.error?.message}`);
      return done.result;
    };
    const capture = async (treeId: string, baseBackupId?: string) => {
      const op = await engine.startCapture(
        WHO,
        {
          name: baseBackupId ? 'inc' : 'full',
          scope: { treeId },
          pageSize: 4,
          labels: {},
          ...(baseBackupId && { baseBackupId }),
        },
        baseBackupId !== undefined,
      );
      return ((await finish(op)) as CaptureResult).backupId;
    };
    const restore = async (request: Omit<RestoreRequest, 'applyBatchSize'>) =>
      finish(await engine.startRestore(WHO, { applyBatchSize: 3, ...request }, false));
    const read = async (treeId: string): Promise<Tree> => {
      const tree: Tree = new Map();
      let pageToken = '';
      do {
        const page = await data.listEntries(TENANT, treeId, { pageSize: 5, pageToken });
        for (const e of page.entries) {
          tree.set(e.key, { value: e.valueJson, schemaVersion: e.schemaVersion });
        }
        pageToken = page.nextPageToken;
      } while (pageToken);
      return tree;
    };
    const differences = async (operationId: string) => {
      const out: StoredDifference[] = [];
      let pageToken = '';
      do {
        const page = await insight.listDifferences(TENANT, operationId, {
          pageSize: 4,
          pageToken,
          changes: [],
          withValues: true,
        });
        out.push(...page.differences);
        pageToken = page.nextPageToken;
      } while (pageToken);
      return out;
    };
    return {
      storage,
      runner,
      engine,
      insight,
      data,
      finish,
      settle,
      capture,
      restore,
      read,
      differences,
    };
  }

  /** A tree, a full backup, changes, an incremental, and more changes after it. */
  async function withIncrementalChain(env: Awaited<ReturnType<typeof setUp>>, tree: string) {
    const { data, capture } = env;
    const put = (key: string, value: unknown) =>
      data.putEntry(TENANT, tree, key, JSON.stringify(value));
    for (let i = 0; i < 20; i++) await put(`a/${String(i).padStart(2, '0')}`, { i, v: 1 });
    for (let i = 0; i < 5; i++) await put(`b/${i}`, { b: i });
    await put('\u{1F600}-astral', { wide: true });
    await put('\uE000-private', { narrow: true });
    const full = await capture(tree);
    // Between full and incremental: changes, deletes (tombstones), adds.
    await put('a/03', { i: 3, v: 2 });
    await put('a/04', { i: 4, v: 2 });
    await data.deleteEntry(TENANT, tree, 'a/05');
    await data.deleteEntry(TENANT, tree, 'b/1');
    await put('a/20', { i: 20, v: 1 });
    await put('c/new', { c: 1 });
    const inc = await capture(tree, full);
    // After the incremental: the live tree moves on, so a restore changes things back.
    await put('a/03', { i: 3, v: 3 });
    await data.deleteEntry(TENANT, tree, 'a/04');
    await put('a/05', { i: 5, v: 'back' });
    await data.deleteEntry(TENANT, tree, 'c/new');
    await put('d/after', { d: 1 });
    await data.deleteEntry(TENANT, tree, '\uE000-private');
    return { full, inc };
  }

  it('a preview compares escaped and unicode keys and values exactly, also after a restore renumbered them', async () => {
    const env = await setUp();
    const keys = ['q"uote', 'back\\slash', 'tab\tkey', 'é-key', '\u{1F600}', '\uE000', 'plain'];
    for (const [i, key] of keys.entries()) {
      const value = { text: `${key} "${i}" \\ \n é 😀`, i };
      await env.data.putEntry(TENANT, 'esc', key, JSON.stringify(value));
    }
    const backupId = await env.capture('esc');
    // Restoring writes the same values under new sequences: their lines differ only there.
    await env.restore({ backupId, mode: 'IN_PLACE' });
    const same = await env.insight.startPreview(WHO, { backupId, cold: false });
    const sameReport = (await env.finish(same)) as ComparisonReport;
    expect(sameReport.counts).toEqual({ added: 0, changed: 0, removed: 0, unchanged: 7 });
    expect(await env.differences(same.id)).toEqual([]);

    await env.data.putEntry(TENANT, 'esc', 'q"uote', JSON.stringify({ text: 'other "value"' }));
    const before = await env.read('esc');
    const changed = await env.insight.startPreview(WHO, { backupId, cold: false });
    const changedReport = (await env.finish(changed)) as ComparisonReport;
    expect(changedReport.counts).toEqual({ added: 0, changed: 1, removed: 0, unchanged: 6 });
    const previewed = await env.differences(changed.id);
    await env.restore({ backupId, mode: 'IN_PLACE' });
    expect(previewed).toEqual(expectedDifferences(before, await env.read('esc')));
  });

  it('a preview of an incremental chain lists exactly what the restore then does, key by key', async () => {
    const env = await setUp();
    const { full, inc } = await withIncrementalChain(env, 'p');
    const op = await env.insight.startPreview(WHO, { backupId: inc, cold: false });
    expect(op.kind).toBe('RESTORE_PREVIEW');
    const report = (await env.finish(op)) as ComparisonReport;
    const previewed = await env.differences(op.id);

    const before = await env.read('p');
    await env.restore({ backupId: inc, mode: 'IN_PLACE' });
    const after = await env.read('p');
    const expected = expectedDifferences(before, after);
    expect(expected.length).toBeGreaterThan(5);
    expect(previewed).toEqual(expected);
    expect(report.toChain).toEqual([full, inc]);
    expect(report.counts).toEqual({
      added: expected.filter((d) => d.change === 'ADDED').length,
      changed: expected.filter((d) => d.change === 'CHANGED').length,
      removed: expected.filter((d) => d.change === 'REMOVED').length,
      unchanged: unchangedCount(before, after),
    });
    // The restore swapped the tree: the preview now says it is stale.
    const view = await env.insight.view(TENANT, op.id);
    expect(view?.treeChanged).toBe(true);
  });

  /** The same seeded history of puts, identical rewrites and deletes around a 3-backup chain. */
  async function withRandomHistory(env: Awaited<ReturnType<typeof setUp>>, tree: string) {
    let seed = 0x5eed;
    const random = () => {
      // mulberry32: the same steps in every environment the test builds.
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const values = new Map<string, string>();
    const step = async () => {
      const key = `${random() < 0.5 ? 'a' : 'b'}/${Math.floor(random() * 60)}`;
      const roll = random();
      if (roll < 0.25) {
        await env.data.deleteEntry(TENANT, tree, key).catch(() => undefined);
        values.delete(key);
      } else if (roll < 0.4 && values.has(key)) {
        // The same value again: a new sequence, nothing to restore.
        await env.data.putEntry(TENANT, tree, key, values.get(key) ?? '');
      } else {
        const value = JSON.stringify({ key, n: Math.floor(random() * 3) });
        await env.data.putEntry(TENANT, tree, key, value);
        values.set(key, value);
      }
    };
    for (let i = 0; i < 80; i++) await step();
    const full = await env.capture(tree);
    for (let i = 0; i < 30; i++) await step();
    const inc1 = await env.capture(tree, full);
    for (let i = 0; i < 30; i++) await step();
    const inc2 = await env.capture(tree, inc1);
    for (let i = 0; i < 40; i++) await step();
    return inc2;
  }

  it('a preview of the tree the chain came from reads only its later writes, and says what reading all of it says', async () => {
    const changes = await setUp();
    const whole = await setUp(undefined, undefined, true);
    const outcomes = [];
    for (const env of [changes, whole]) {
      const backupId = await withRandomHistory(env, 'h');
      const all = await env.insight.startPreview(WHO, { backupId, cold: false });
      const scoped = await env.insight.startPreview(WHO, {
        backupId,
        scope: { treeId: 'h', keyPrefix: 'b/' },
        cold: false,
      });
      const reports = [all, scoped].map(async (op) => {
        const report = (await env.finish(op)) as ComparisonReport;
        return { counts: report.counts, differences: await env.differences(op.id) };
      });
      outcomes.push({ backupId, reports: await Promise.all(reports) });
    }
    const [mine, reference] = outcomes;
    expect(mine?.reports).toEqual(reference?.reports);
    const [all] = mine?.reports ?? [];
    const kinds = new Set(all?.differences.map((d) => d.change));
    expect([...kinds].sort()).toEqual(['ADDED', 'CHANGED', 'REMOVED']);
    // And it is what the restore then does.
    const before = await changes.read('h');
    await changes.restore({ backupId: mine?.backupId ?? '', mode: 'IN_PLACE' });
    const after = await changes.read('h');
    expect(all?.differences).toEqual(expectedDifferences(before, after));
    expect(all?.counts.unchanged).toBe(unchangedCount(before, after));
  });

  it('a scoped preview matches a scoped restore, and one into a new tree adds everything', async () => {
    const env = await setUp();
    const { inc } = await withIncrementalChain(env, 's');
    const op = await env.insight.startPreview(WHO, {
      backupId: inc,
      scope: { treeId: 's', keyPrefix: 'a/' },
      cold: true,
    });
    const report = (await env.finish(op)) as ComparisonReport;
    expect(report.keyPrefix).toBe('a/');
    const previewed = await env.differences(op.id);
    const before = await env.read('s');
    await env.restore({ backupId: inc, mode: 'IN_PLACE', scope: { treeId: 's', keyPrefix: 'a/' } });
    const after = await env.read('s');
    expect(previewed).toEqual(expectedDifferences(before, after));
    expect(previewed.every((d) => d.key.startsWith('a/'))).toBe(true);

    const fresh = await env.insight.startPreview(WHO, {
      backupId: inc,
      targetTreeId: 'nothing-here',
      cold: false,
    });
    const added = (await env.finish(fresh)) as ComparisonReport;
    expect(added.treeSequence).toBe(0);
    expect(added.counts.removed + added.counts.changed + added.counts.unchanged).toBe(0);
    await env.restore({ backupId: inc, mode: 'NEW_TREE', targetTreeId: 'nothing-here' });
    expect(added.counts.added).toBe((await env.read('nothing-here')).size);
  });

  it('a write after the preview makes it stale; until then it is fresh', async () => {
    const env = await setUp();
    const { inc } = await withIncrementalChain(env, 'f');
    const op = await env.insight.startPreview(WHO, { backupId: inc, cold: false });
    await env.finish(op);
    expect((await env.insight.view(TENANT, op.id))?.treeChanged).toBe(false);
    await env.data.putEntry(TENANT, 'f', 'zz', '1');
    const stale = await env.insight.view(TENANT, op.id);
    expect(stale?.treeChanged).toBe(true);
    expect(stale?.currentTreeSequence).toBeGreaterThan(stale?.report?.treeSequence ?? 0);
  });

  it('a diff of two backups equals the difference of the two restored trees', async () => {
    const env = await setUp();
    const { full, inc } = await withIncrementalChain(env, 'd');
    const op = await env.insight.startDiff(WHO, { fromBackupId: full, toBackupId: inc });
    const report = (await env.finish(op)) as ComparisonReport;
    const diffed = await env.differences(op.id);
    await env.restore({ backupId: full, mode: 'NEW_TREE', targetTreeId: 'd-full' });
    await env.restore({ backupId: inc, mode: 'NEW_TREE', targetTreeId: 'd-inc' });
    const fromTree = await env.read('d-full');
    const toTree = await env.read('d-inc');
    const expected = expectedDifferences(fromTree, toTree);
    expect(diffed).toEqual(expected);
    expect(report.fromChain).toEqual([full]);
    expect(report.toChain).toEqual([full, inc]);
    expect(report.counts.unchanged).toBe(unchangedCount(fromTree, toTree));
    // The other way round, every ADDED is REMOVED and the values swap sides.
    const back = await env.insight.startDiff(WHO, { fromBackupId: inc, toBackupId: full });
    await env.finish(back);
    expect(await env.differences(back.id)).toEqual(expectedDifferences(toTree, fromTree));
    // A filter on the change keeps key order.
    const added = await env.insight.listDifferences(TENANT, op.id, {
      pageSize: 100,
      pageToken: '',
      changes: ['ADDED'],
      withValues: true,
    });
    expect(added.differences).toEqual(expected.filter((d) => d.change === 'ADDED'));
  });

  it('a damaged artifact fails the diff and the preview with DataLoss and leaves no differences', async () => {
    const env = await setUp();
    const { full, inc } = await withIncrementalChain(env, 'x');
    const described = await env.engine.catalog.describe(TENANT, inc);
    const artifact = described?.entry.manifest.artifacts[0];
    if (!artifact) throw new Error('no artifact');
    const store = env.engine.artifacts as DirectoryArtifactStore;
    const path = store.layout.artifactPath(TENANT, inc, artifact.artifactId);
    const bytes = readFileSync(path);
    bytes[bytes.length - 12] = (bytes[bytes.length - 12] ?? 0) ^ 0xff;
    writeFileSync(path, bytes);

    const diff = await env.settle(
      await env.insight.startDiff(WHO, { fromBackupId: full, toBackupId: inc }),
    );
    expect(diff.state).toBe('FAILED');
    expect(diff.error?.code).toBe('data_loss');
    const preview = await env.settle(
      await env.insight.startPreview(WHO, { backupId: inc, cold: false }),
    );
    expect(preview.error?.code).toBe('data_loss');
    const count = await env.storage.db
      .selectFrom('backup_comparison_differences')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
    await expect(
      env.insight.listDifferences(TENANT, diff.id, {
        pageSize: 0,
        pageToken: '',
        changes: [],
        withValues: true,
      }),
    ).rejects.toMatchObject({ code: 'failed_precondition' });
  });

  it('a cancelled preview ends CANCELLED and keeps no differences', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let pages = 0;
    const env = await setUp(async () => {
      pages += 1;
      await gate;
    });
    const { inc } = await withIncrementalChain(env, 'c');
    await env.data.putEntry(TENANT, 'c', 'a/00', '"moved on"');
    for (let i = 0; i < 30; i++) await env.data.putEntry(TENANT, 'c', `z/${i}`, '0');
    const op = await env.insight.startPreview(WHO, { backupId: inc, cold: false });
    while (pages === 0) await new Promise((r) => setTimeout(r, 10));
    const cancelled = await env.runner.cancel(TENANT, op.id, ['RESTORE_PREVIEW', 'BACKUP_DIFF']);
    expect(cancelled?.cancelRequested).toBe(true);
    release();
    const done = await env.settle(op);
    expect(done.state).toBe('CANCELLED');
    expect((await env.insight.view(TENANT, op.id))?.report).toBeUndefined();
    const rows = await env.storage.db
      .selectFrom('backup_comparison_differences')
      .selectAll()
      .where('operation_id', '=', op.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('the differences of a comparison the runner purged go with the next comparison', async () => {
    const env = await setUp(undefined, 1);
    const { full, inc } = await withIncrementalChain(env, 'r');
    const old = await env.insight.startDiff(WHO, { fromBackupId: full, toBackupId: inc });
    await env.finish(old);
    expect((await env.differences(old.id)).length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 5));
    await env.runner.purgeExpired();
    const next = await env.insight.startDiff(WHO, { fromBackupId: full, toBackupId: inc });
    await env.finish(next);
    const owners = await env.storage.db
      .selectFrom('backup_comparison_differences')
      .select('operation_id')
      .distinct()
      .execute();
    expect(owners.map((o) => o.operation_id)).toEqual([next.id]);
  });

  it('refuses bad requests before queueing them', async () => {
    const env = await setUp();
    const { full } = await withIncrementalChain(env, 'v');
    await env.data.putEntry(TENANT, 'other', 'k', '1');
    const otherTree = await env.capture('other');
    await expect(
      env.insight.startPreview(WHO, { backupId: 'nope', cold: false }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      env.insight.startPreview(WHO, { backupId: full, targetTreeId: '..', cold: false }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(
      env.insight.startDiff(WHO, { fromBackupId: full, toBackupId: otherTree }),
    ).rejects.toMatchObject({ code: 'failed_precondition' });
    await expect(
      env.insight.listDifferences(TENANT, 'absent', {
        pageSize: 0,
        pageToken: '',
        changes: [],
        withValues: true,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await env.insight.view(TENANT, 'absent')).toBeUndefined();
  });
});
