import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import type { Storage } from '../database.js';
import {
  changedOutsidePrefixCopy,
  installRestoredTree,
  preCopyOutsidePrefix,
  type InstallRequest,
} from '../backup/restore-install-store.js';
import { checkKeptCounts } from './kept-counts.js';
import {
  bulkInsertEntries,
  countLiveEntries,
  createPhysicalTree,
  dropPhysicalTree,
  getPhysicalTree,
  readPhysicalEntries,
  swapPhysicalTree,
} from './physical-tree-store.js';
import {
  copyOutsidePrefixInSteps,
  copyStepSql,
  deleteTreeEntriesInSteps,
  SQLITE_DELETE_STEP,
  stepEndSql,
  STEPPED_WRITE_MAX_ROWS,
  type StepReport,
} from './stepped-tree-writes.js';
import { putEntry, resolveTree } from './tree-store.js';

const T = 'acme';

/** `count` entries `${prefix}00000`…, sequences from `firstSequence`. */
function entries(prefix: string, count: number, firstSequence = 1) {
  return Array.from({ length: count }, (_, i) => ({
    key: `${prefix}${String(i).padStart(5, '0')}`,
    valueJson: `{"n":${i}}`,
    tombstone: i % 97 === 0,
    sequence: firstSequence + i,
    schemaVersion: 1,
    updatedAt: 5,
  }));
}

async function allKeys(storage: Storage, physicalTreeId: string): Promise<string[]> {
  const rows = await readPhysicalEntries(storage, physicalTreeId, { limit: 1_000_000 });
  return rows.map((row) => row.key);
}

describe.each(DIALECTS)('stepped tree writes on %s', (dialect) => {
  let storage: Storage;
  const freshStorage = storagePerTest(dialect);
  beforeEach(async () => {
    storage = await freshStorage();
  });

  const filledTree = async (rows: ReturnType<typeof entries>) => {
    const id = await createPhysicalTree(storage, { tenant: T, treeName: 'big', now: 1 });
    await bulkInsertEntries(storage, id, rows);
    return id;
  };

  it('deletes a tree of 4 500 entries in steps of at most 1 000 rows (SQLite), counts exact', async () => {
    const id = await filledTree(entries('k/', 4_500));
    const steps: StepReport[] = [];
    const deleted = await deleteTreeEntriesInSteps(storage, id, { onStep: (s) => steps.push(s) });
    expect(deleted).toBe(4_500);
    expect(await allKeys(storage, id)).toEqual([]);
    expect(await countLiveEntries(storage, id)).toBe(0);
    expect(await checkKeptCounts(storage)).toEqual([]);
    if (dialect === 'sqlite') {
      // On SQLite the statement runs on the event loop: never one DELETE of the whole tree.
      expect(steps.length).toBeGreaterThanOrEqual(5);
      expect(Math.max(...steps.map((s) => s.rows))).toBeLessThanOrEqual(STEPPED_WRITE_MAX_ROWS);
      expect(steps.reduce((n, s) => n + s.rows, 0)).toBe(4_500);
    } else {
      // PostgreSQL runs it on its own connection: one statement, nothing reported per step.
      expect(steps).toEqual([]);
    }
  });

  it.runIf(dialect === 'sqlite')(
    'gives the event loop back between the steps of a drop, long before it ends',
    async () => {
      const id = await filledTree(entries('k/', 4_500));
      let otherCallRanAtStep: number | undefined;
      let steps = 0;
      setImmediate(() => (otherCallRanAtStep = steps));
      await deleteTreeEntriesInSteps(storage, id, { onStep: () => (steps += 1) });
      expect(steps).toBeGreaterThanOrEqual(5);
      expect(otherCallRanAtStep).toBeDefined();
      expect(otherCallRanAtStep!).toBeLessThan(steps);
    },
  );

  it.runIf(dialect === 'sqlite')(
    'each step walks the primary key (physical tree, key): no scan, no temp B-tree',
    async () => {
      await filledTree(entries('k/', 4_500));
      storage.sqlitePrepare!('analyze').run();
      const plan = (text: string, ...params: unknown[]) =>
        (
          storage.sqlitePrepare!(`explain query plan ${text}`).all(...params) as {
            detail: string;
          }[]
        )
          .map((row) => row.detail)
          .join('\n');
      // The delete's rowids come from either index of (physical tree, …): any N rows do.
      const deleteStep = plan(SQLITE_DELETE_STEP, 't', 1000);
      expect(deleteStep).toMatch(/SEARCH entries USING COVERING INDEX \w+ \(physical_tree_id=\?\)/);
      expect(deleteStep).not.toMatch(/SCAN entries|TEMP B-TREE/);
      // The copy walks keys in order: the primary key, never the sequence index or a sort.
      const copySteps = [true, false].flatMap((first) => [
        plan(stepEndSql(first, true), 's', 'a', 'p', 999),
        plan(stepEndSql(first, false), 's', 'a', 999),
        plan(copyStepSql(first, 'last'), 't', 's', 'a', 'b'),
        plan(copyStepSql(first, 'end'), 't', 's', 'a', 'p'),
      ]);
      for (const details of copySteps) {
        expect(details).toMatch(/SEARCH entries USING (COVERING )?INDEX sqlite_autoindex_entries_1/);
        expect(details).not.toMatch(/SCAN entries|TEMP B-TREE|entries_by_sequence/);
      }
    },
  );

  it.runIf(dialect === 'sqlite')(
    "the install's copy of writes since the pre-copy reads the sequence index, not the tree",
    async () => {
      await filledTree(entries('k/', 4_500));
      const compiled = changedOutsidePrefixCopy(storage, 's', 't', 'p/', 10).compile(storage.db);
      const plan = (
        storage.sqlitePrepare!(`explain query plan ${compiled.sql}`).all(
          ...compiled.parameters,
        ) as { detail: string }[]
      )
        .map((row) => row.detail)
        .join('\n');
      expect(plan).toMatch(
        /SEARCH entries USING INDEX entries_by_sequence \(physical_tree_id=\? AND sequence>\?\)/,
      );
      expect(plan).not.toMatch(/SCAN entries|sqlite_autoindex_entries_1/);
    },
  );

  it('drops an unreachable tree whole, and leaves a tree a logical tree points at', async () => {
    const orphan = await filledTree(entries('k/', 2_100));
    expect(await dropPhysicalTree(storage, orphan)).toBe(true);
    expect(await getPhysicalTree(storage, orphan)).toBeUndefined();
    expect(await allKeys(storage, orphan)).toEqual([]);

    await putEntry(storage, {
      tenant: T,
      treeName: 'live',
      key: 'a',
      valueJson: '1',
      schemaVersion: 0,
      now: 1,
    });
    const live = (await resolveTree(storage, T, 'live'))!.physicalTreeId;
    expect(await dropPhysicalTree(storage, live)).toBe(false);
    expect(await allKeys(storage, live)).toEqual(['a']);
    expect(await checkKeptCounts(storage)).toEqual([]);
  });

  it('copies everything outside a prefix in steps, never the prefix itself', async () => {
    const source = await filledTree([
      ...entries('a/', 1_500),
      ...entries('p/', 2_500, 10_000),
      ...entries('z/', 1_200, 20_000),
    ]);
    const target = await createPhysicalTree(storage, { tenant: T, treeName: 'big', now: 1 });
    await bulkInsertEntries(storage, target, entries('p/', 3, 50_000));
    const steps: StepReport[] = [];
    const copied = await copyOutsidePrefixInSteps(storage, source, target, 'p/', {
      onStep: (s) => steps.push(s),
    });
    expect(copied).toBe(2_700);
    const keys = await allKeys(storage, target);
    const expected = [
      ...entries('a/', 1_500).map((e) => e.key),
      ...entries('p/', 3).map((e) => e.key),
      ...entries('z/', 1_200).map((e) => e.key),
    ];
    expect(keys).toEqual(expected);
    const copiedRow = (await readPhysicalEntries(storage, target, { limit: 1 }))[0];
    expect(copiedRow).toMatchObject({ key: 'a/00000', tombstone: true, sequence: 1 });
    expect(await checkKeptCounts(storage)).toEqual([]);
    if (dialect === 'sqlite') {
      expect(Math.max(...steps.map((s) => s.rows))).toBeLessThanOrEqual(STEPPED_WRITE_MAX_ROWS);
      expect(steps.reduce((n, s) => n + s.rows, 0)).toBe(2_700);
    }
  });

  it('a scoped install after a stepped pre-copy takes the writes made meanwhile', async () => {
    const put = (key: string, valueJson: string) =>
      putEntry(storage, {
        tenant: T,
        treeName: 'scoped',
        key,
        valueJson,
        schemaVersion: 0,
        now: 2,
      });
    for (const key of ['a/1', 'a/2', 'p/1', 'z/1']) await put(key, '"old"');
    const current = (await resolveTree(storage, T, 'scoped'))!;
    const restored = await createPhysicalTree(storage, {
      tenant: T,
      treeName: 'scoped',
      now: 3,
      lastSequence: current.lastSequence,
    });
    await bulkInsertEntries(storage, restored, [
      {
        key: 'p/1',
        valueJson: '"restored"',
        tombstone: false,
        sequence: 1,
        schemaVersion: 0,
        updatedAt: 3,
      },
    ]);
    const preCopied = await preCopyOutsidePrefix(storage, {
      tenant: T,
      treeName: 'scoped',
      physicalTreeId: restored,
      keyPrefix: 'p/',
    });
    expect(preCopied).toEqual({
      fromPhysicalTreeId: current.physicalTreeId,
      upToSequence: current.lastSequence,
    });
    // Written after the pre-copy read the tree: the install must carry them over.
    await put('a/2', '"new"');
    await put('b/1', '"added"');
    await put('p/2', '"inside the prefix: not carried"');
    const request: InstallRequest = {
      tenant: T,
      treeName: 'scoped',
      physicalTreeId: restored,
      mode: 'IN_PLACE',
      keyPrefix: 'p/',
      lockedBy: null,
      now: 4,
      restore: {
        tenant: T,
        operationId: 'op-scoped',
        backupId: 'b-1',
        targetTree: 'scoped',
        mode: 'IN_PLACE',
        restoredPhysicalTreeId: restored,
        resultJson: '',
        createdAt: 4,
      },
      resultOf: () => '{}',
      preCopied,
    };
    expect((await installRestoredTree(storage, request)).status).toBe('installed');
    const rows = await readPhysicalEntries(storage, restored, { limit: 100 });
    expect(rows.map((r) => [r.key, r.valueJson])).toEqual([
      ['a/1', '"old"'],
      ['a/2', '"new"'],
      ['b/1', '"added"'],
      ['p/1', '"restored"'],
      ['z/1', '"old"'],
    ]);
    expect((await resolveTree(storage, T, 'scoped'))!.physicalTreeId).toBe(restored);
    expect(await checkKeptCounts(storage)).toEqual([]);
  });

  it('a pre-copy of a tree another restore replaced meanwhile is thrown away', async () => {
    const put = (key: string) =>
      putEntry(storage, {
        tenant: T,
        treeName: 'moved',
        key,
        valueJson: '"v"',
        schemaVersion: 0,
        now: 2,
      });
    await put('a/1');
    await put('z/1');
    const restored = await createPhysicalTree(storage, { tenant: T, treeName: 'moved', now: 3 });
    const preCopied = await preCopyOutsidePrefix(storage, {
      tenant: T,
      treeName: 'moved',
      physicalTreeId: restored,
      keyPrefix: 'p/',
    });
    expect(await allKeys(storage, restored)).toEqual(['a/1', 'z/1']);
    // Another tree takes its place (as another restore's install would).
    const other = await createPhysicalTree(storage, { tenant: T, treeName: 'moved', now: 3 });
    await bulkInsertEntries(storage, other, entries('c/', 2));
    await swapPhysicalTree(storage, {
      tenant: T,
      treeName: 'moved',
      physicalTreeId: other,
      now: 3,
    });
    const outcome = await installRestoredTree(storage, {
      tenant: T,
      treeName: 'moved',
      physicalTreeId: restored,
      mode: 'IN_PLACE',
      keyPrefix: 'p/',
      lockedBy: null,
      now: 4,
      restore: {
        tenant: T,
        operationId: 'op-moved',
        backupId: 'b-1',
        targetTree: 'moved',
        mode: 'IN_PLACE',
        restoredPhysicalTreeId: restored,
        resultJson: '',
        createdAt: 4,
      },
      resultOf: () => '{}',
      preCopied,
    });
    expect(outcome.status).toBe('installed');
    expect(await allKeys(storage, restored)).toEqual(['c/00000', 'c/00001']);
    expect(await checkKeptCounts(storage)).toEqual([]);
  });
});
