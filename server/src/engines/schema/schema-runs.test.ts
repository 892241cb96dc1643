import { TableNode, sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTree, testControl } from '../../../test/support/schema-fixtures.js';
import { DIALECTS, openTestStorage } from '../../../test/support/test-storage.js';
import type { Storage } from '../../storage/database.js';
import { listLiveEntries } from '../../storage/data/tree-store.js';
import { StoreError } from '../errors.js';
import type { VersionConfig } from './core/index.js';
import { SchemaEngine } from './schema-engine.js';
import { migrateTree, remediateTree, scanTree } from './schema-runs.js';
import type { RewriteCheckpoint } from './tree-rewrite.js';

const T = 'acme';

// v1 {name, legacy} → v2 {fullName, legacy} → v3 {fullName, active}; 2→3 needs `legacy`.
const THREE_VERSIONS: VersionConfig = {
  currentVersion: 1,
  targetVersion: 3,
  migrations: [
    {
      fromVersion: 1,
      toVersion: 2,
      transform: { ops: [{ op: 'move', from: '/name', path: '/fullName' }] },
    },
    {
      fromVersion: 2,
      toVersion: 3,
      transform: {
        ops: [
          { op: 'remove', path: '/legacy' },
          { op: 'add', path: '/active', valueJson: 'true' },
        ],
      },
    },
  ],
};

const NAMED = JSON.stringify({
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' } },
});

async function liveEntries(storage: Storage, tree: string) {
  return listLiveEntries(storage, T, tree, { limit: 100_000 });
}

/** Counts SELECTs on the entries table, i.e. page reads of a run. */
function entryReadCounter(): { plugin: KyselyPlugin; reads: () => number } {
  let reads = 0;
  return {
    reads: () => reads,
    plugin: {
      transformQuery({ node }) {
        if (node.kind === 'SelectQueryNode') {
          const from = node.from?.froms[0];
          if (from && TableNode.is(from) && from.table.identifier.name === 'entries') reads += 1;
        }
        return node;
      },
      transformResult: async ({ result }) => result,
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<StoreError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected a StoreError');
}

describe.each(DIALECTS)('schema runs on %s', (dialect) => {
  let storage: Storage;
  let dispose: () => Promise<void>;
  let engine: SchemaEngine;
  beforeAll(async () => {
    const opened = await openTestStorage(dialect);
    storage = opened;
    dispose = opened.dispose;
    engine = new SchemaEngine({ storage, pageSize: 2 });
  });
  afterAll(async () => {
    await dispose();
  });

  it('migrates 1→2→3: good values reach the target, a failing one is dead-lettered, config ends at 3', async () => {
    await seedTree(storage, T, 'm', [
      ['a', { name: 'Ada', legacy: 1 }, 1],
      ['b', { name: 'Bob', legacy: 1 }, 1],
      ['c', { name: 'Charlotte' }, 1],
      ['d', { fullName: 'Dan', legacy: 0 }, 2],
      ['e', { fullName: 'Eve', active: false }, 3],
    ]);
    await engine.setVersionConfig(T, 'm', THREE_VERSIONS);
    const report = await migrateTree(
      engine,
      { tenant: T, treeName: 'm', kind: 'MIGRATION' },
      testControl(),
    );
    expect(report).toMatchObject({
      state: 'SUCCEEDED',
      scanned: 5,
      alreadyCompliant: 1,
      transformed: 3,
      deadLettered: 1,
      failed: 0,
      fromVersion: 1,
      toVersion: 3,
      operationId: 'op-test',
    });
    const entries = await liveEntries(storage, 'm');
    expect(entries.map((e) => [e.key, JSON.parse(e.valueJson ?? ''), e.schemaVersion])).toEqual([
      ['a', { fullName: 'Ada', active: true }, 3],
      ['b', { fullName: 'Bob', active: true }, 3],
      ['d', { fullName: 'Dan', active: true }, 3],
      ['e', { fullName: 'Eve', active: false }, 3],
    ]);
    const letters = [];
    for await (const letter of engine.streamDeadLetters(T, 'm')) letters.push(letter);
    expect(letters).toEqual([
      expect.objectContaining({
        key: 'c',
        reason: 'MIGRATION_FAILED',
        schemaVersion: 1,
        sourceOperationId: 'op-test',
      }),
    ]);
    expect((await engine.getVersionConfig(T, 'm'))?.currentVersion).toBe(3);
    expect(await engine.getRemediationStatus(T, 'm')).toEqual(report);
  });

  it('refuses a migration whose chain has a gap before touching anything', async () => {
    await seedTree(storage, T, 'gap', [['a', { name: 'Ada' }, 1]]);
    await engine.setVersionConfig(T, 'gap', {
      currentVersion: 1,
      targetVersion: 3,
      migrations: [{ fromVersion: 1, toVersion: 2 }],
    });
    const error = await rejection(
      migrateTree(engine, { tenant: T, treeName: 'gap', kind: 'MIGRATION' }, testControl()),
    );
    expect(error.code).toBe('failed_precondition');
    expect(await engine.getRemediationStatus(T, 'gap')).toBeUndefined();
    expect((await liveEntries(storage, 'gap'))[0]?.schemaVersion).toBe(1);
  });

  it('a migration cancelled midway leaves every entry at its old version or the target, and resumes', async () => {
    const seed = Array.from(
      { length: 9 },
      (_, i) => [`k${i}`, { name: 'Ada', legacy: 1 }, 1] as const,
    );
    await seedTree(storage, T, 'cancel', seed);
    await engine.setVersionConfig(T, 'cancel', THREE_VERSIONS);
    const control = testControl<RewriteCheckpoint>({ cancelAt: 3 });
    const error = await rejection(
      migrateTree(engine, { tenant: T, treeName: 'cancel', kind: 'MIGRATION' }, control),
    );
    expect(error.code).toBe('cancelled');
    const versions = (await liveEntries(storage, 'cancel')).map((e) => e.schemaVersion);
    expect(versions).toEqual([3, 3, 3, 3, 1, 1, 1, 1, 1]);
    expect(await engine.getRemediationStatus(T, 'cancel')).toMatchObject({
      state: 'CANCELLED',
      transformed: 4,
    });
    expect((await engine.getVersionConfig(T, 'cancel'))?.currentVersion).toBe(1);

    const resumed = testControl<RewriteCheckpoint>({ checkpoint: control.checkpoints.at(-1) });
    const report = await migrateTree(
      engine,
      { tenant: T, treeName: 'cancel', kind: 'MIGRATION' },
      resumed,
    );
    expect(report).toMatchObject({
      state: 'SUCCEEDED',
      scanned: 9,
      transformed: 9,
      alreadyCompliant: 0,
    });
    expect((await liveEntries(storage, 'cancel')).every((e) => e.schemaVersion === 3)).toBe(true);
  });

  it('remediation makes a mixed tree compliant with exact counts, then a scan is clean', async () => {
    await seedTree(storage, T, 'r', [
      ['ok1', { name: 'Ann' }, 0],
      ['fix1', { fullName: 'Bob' }, 0],
      ['ok2', { name: 'Cy' }, 0],
      ['fix2', { fullName: 'Dee' }, 0],
      ['bad', { other: 1 }, 0],
    ]);
    await engine.setPolicy(T, 'r', { jsonSchema: NAMED, mode: 'AUDIT', version: 1 }, 'a');
    const before = await scanTree(engine, { tenant: T, treeName: 'r' }, testControl());
    expect(before).toMatchObject({ scanned: 5, compliant: 2, nonCompliant: 3 });

    const report = await remediateTree(
      engine,
      { tenant: T, treeName: 'r' },
      {
        transform: { ops: [{ op: 'move', from: '/fullName', path: '/name' }] },
        targetPolicy: { jsonSchema: NAMED, mode: 'ENFORCE', version: 2 },
      },
      testControl(),
    );
    expect(report).toMatchObject({
      state: 'SUCCEEDED',
      scanned: 5,
      alreadyCompliant: 2,
      transformed: 2,
      deadLettered: 1,
      failed: 0,
      fromVersion: 1,
      toVersion: 2,
    });
    expect(await engine.getPolicy(T, 'r')).toMatchObject({
      version: 2,
      mode: 'ENFORCE',
      updatedBy: 'tester',
    });
    const letters = [];
    for await (const letter of engine.streamDeadLetters(T, 'r')) letters.push(letter);
    expect(letters.map((l) => [l.key, l.reason])).toEqual([['bad', 'TRANSFORM_FAILED']]);
    const after = await scanTree(engine, { tenant: T, treeName: 'r' }, testControl());
    expect(after).toMatchObject({
      scanned: 4,
      compliant: 4,
      nonCompliant: 0,
      violations: [],
      policyVersion: 2,
    });
  });

  it('a compliance scan counts a hand-made tree and lists violations in key order', async () => {
    await seedTree(storage, T, 's', [
      ['a', { name: 'A' }, 0],
      ['b', { name: 7 }, 0],
      ['c', {}, 0],
      ['d', { name: 'D' }, 0],
      ['e', 'text', 0],
    ]);
    await engine.setPolicy(T, 's', { jsonSchema: NAMED, mode: 'AUDIT', version: 4 }, 'a');
    const report = await scanTree(engine, { tenant: T, treeName: 's' }, testControl());
    expect(report).toMatchObject({
      treeId: 's',
      policyVersion: 4,
      scanned: 5,
      compliant: 2,
      nonCompliant: 3,
    });
    expect(report.violations).toEqual([
      { key: 'b', path: '/name', message: 'must be string' },
      { key: 'c', path: '', message: "must have required property 'name'" },
      { key: 'e', path: '', message: 'must be object' },
    ]);
    const noPolicy = await rejection(
      scanTree(engine, { tenant: T, treeName: 'none' }, testControl()),
    );
    expect(noPolicy.code).toBe('failed_precondition');
  });

  it('reads in pages: page size 10 over 10 000 entries visits each entry exactly once', async () => {
    // 1000 page transactions: without an fsync per commit the test measures paging, not the disk.
    if (dialect === 'sqlite') await sql`pragma synchronous = NORMAL`.execute(storage.db);
    const count = 10_000;
    const seed = Array.from(
      { length: count },
      (_, i) => [`k${String(i).padStart(5, '0')}`, { n: i, visits: [] }, 1] as const,
    );
    await seedTree(storage, T, 'big', seed);
    const counter = entryReadCounter();
    const counted = { ...storage, db: storage.db.withPlugin(counter.plugin) };
    const paged = new SchemaEngine({ storage: counted, pageSize: 10 });
    await paged.setVersionConfig(T, 'big', {
      currentVersion: 1,
      targetVersion: 2,
      migrations: [
        {
          fromVersion: 1,
          toVersion: 2,
          transform: { ops: [{ op: 'add', path: '/visits/-', valueJson: '1' }] },
        },
      ],
    });
    const report = await migrateTree(
      paged,
      { tenant: T, treeName: 'big', kind: 'MIGRATION' },
      testControl(),
    );
    expect(report).toMatchObject({ scanned: count, transformed: count, failed: 0 });
    // One read per page of 10 and the empty read that ends the run; the progress total is the
    // tree's kept count (migration 0025), which reads no entries.
    expect(counter.reads()).toBe(count / 10 + 1);
    const entries = await liveEntries(storage, 'big');
    expect(entries).toHaveLength(count);
    expect(entries.every((e) => JSON.parse(e.valueJson ?? '').visits.length === 1)).toBe(true);

    await paged.setPolicy(T, 'big', { jsonSchema: '{"required":["n"]}', version: 1 }, 'a');
    const before = counter.reads();
    const scan = await scanTree(paged, { tenant: T, treeName: 'big' }, testControl());
    expect(scan).toMatchObject({ scanned: count, compliant: count });
    expect(counter.reads() - before).toBe(count / 10 + 1);
  }, 60_000);
});
