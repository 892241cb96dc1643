import { describe, expect, it } from 'vitest';
import { deferred, finished, useRunners } from '../../../test/operations/runner-fixture.js';
import { seedTree } from '../../../test/support/schema-fixtures.js';
import { DIALECTS } from '../../../test/support/test-storage.js';
import type { Storage } from '../../storage/database.js';
import { listLiveEntries } from '../../storage/data/tree-store.js';
import type { OperationRunner } from '../operations/operation-runner.js';
import { SchemaEngine } from './schema-engine.js';
import { SchemaOperations } from './schema-tracked.js';

const T = 'acme';
const COUNT = 400;
const START = { tenant: T, createdBy: 'tester' };

// Each step appends to `visits`, so a value migrated twice would show it.
const CONFIG = {
  currentVersion: 1,
  targetVersion: 2,
  migrations: [
    {
      fromVersion: 1,
      toVersion: 2,
      transform: { ops: [{ op: 'add', path: '/visits/-', valueJson: '1' }] },
    },
  ],
};

/** Holds the run after its `at`-th committed page until released: stops it midway, deterministically. */
function gateAt(at: number) {
  const reached = deferred();
  const release = deferred();
  const onPage = async ({ scanned }: { scanned: number }) => {
    if (scanned !== at * 10) return;
    reached.resolve();
    await release.promise;
  };
  return { onPage, reached: reached.promise, release: () => release.resolve() };
}

async function versions(storage: Storage, tree: string) {
  const entries = await listLiveEntries(storage, T, tree, { limit: COUNT + 1 });
  return entries.map((e) => ({
    version: e.schemaVersion,
    visits: (JSON.parse(e.valueJson ?? '{}') as { visits: unknown[] }).visits.length,
  }));
}

describe.each(DIALECTS)('tracked schema operations on %s', (dialect) => {
  const harness = useRunners(dialect);

  async function setUp(tree: string, gate: ReturnType<typeof gateAt>) {
    const storage = await harness.storage();
    const seed = Array.from(
      { length: COUNT },
      (_, i) => [`k${String(i).padStart(4, '0')}`, { visits: [] }, 1] as const,
    );
    await seedTree(storage, T, tree, seed);
    const engine = new SchemaEngine({ storage, pageSize: 10, onPage: gate.onPage });
    await engine.setVersionConfig(T, tree, CONFIG);
    return { storage, engine };
  }

  function startRunner(runner: OperationRunner, engine: SchemaEngine) {
    const operations = new SchemaOperations(engine, runner);
    operations.register();
    runner.start();
    return operations;
  }

  it('a migration cancelled through the runner stops between pages with every entry at 1 or 2', async () => {
    const gate = gateAt(4);
    const { storage, engine } = await setUp('cancel', gate);
    const runner = await harness.runner();
    const operations = startRunner(runner, engine);
    const op = await operations.startMigration(START, 'cancel');
    await gate.reached;
    // The latest report shows the run while it runs.
    expect(await engine.getRemediationStatus(T, 'cancel')).toMatchObject({
      state: 'RUNNING',
      operationId: op.id,
      finishedAt: null,
    });
    await runner.cancel(T, op.id);
    gate.release();
    expect((await finished(runner, T, op.id)).state).toBe('CANCELLED');
    const after = await versions(storage, 'cancel');
    expect(after.every((v) => v.visits === v.version - 1)).toBe(true);
    expect(after.filter((v) => v.version === 2)).toHaveLength(40);
    expect(await engine.getRemediationStatus(T, 'cancel')).toMatchObject({
      state: 'CANCELLED',
      transformed: 40,
      operationId: op.id,
    });
    expect((await engine.getVersionConfig(T, 'cancel'))?.currentVersion).toBe(1);
  });

  it('a migration interrupted by shutdown resumes from its checkpoint and migrates each entry once', async () => {
    const gate = gateAt(4);
    const { storage, engine } = await setUp('resume', gate);
    const first = await harness.runner();
    const op = await startRunner(first, engine).startMigration(START, 'resume');
    await gate.reached;
    await first.stop({ graceMs: 0 });
    gate.release();
    expect((await first.get(T, op.id))?.state).toBe('QUEUED');
    const partly = await versions(storage, 'resume');
    expect(partly.filter((v) => v.version === 2)).toHaveLength(40);

    const second = await harness.runner();
    startRunner(second, engine);
    const done = await finished(second, T, op.id);
    expect(done.state).toBe('SUCCEEDED');
    expect(done.result).toMatchObject({ state: 'SUCCEEDED', scanned: COUNT });
    const after = await versions(storage, 'resume');
    expect(after).toHaveLength(COUNT);
    expect(after.every((v) => v.version === 2 && v.visits === 1)).toBe(true);
    expect((await engine.getVersionConfig(T, 'resume'))?.currentVersion).toBe(2);
  });
});
