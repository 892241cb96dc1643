import type { ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { OperationRunner } from '../../src/engines/operations/operation-runner.js';
import type { OperationHandler } from '../../src/engines/operations/types.js';
import type { Storage } from '../../src/storage/database.js';
import { storagePerTest } from '../support/storage-per-test.js';
import { DIALECTS, type TestStorageLocation } from '../support/test-storage.js';
import { EXECUTIONS_TABLE, TEST_COUNTED, TEST_RESUMABLE, TEST_SLOW } from './child-kinds.js';
import { killRunner, spawnRunner } from './spawn-runner.js';
import { waitFor } from './wait-for.js';

const LEASE_MS = 1000;
const TENANT = 'acme';

/** Handlers of the recovering runner: the slow kind must never run again, the other resumes. */
function recoveryHandlers(): Record<string, OperationHandler> {
  return {
    [TEST_SLOW]: {
      resumable: false,
      run: () => Promise.reject(new Error('a non-resumable operation ran a second time')),
    },
    [TEST_RESUMABLE]: {
      resumable: true,
      run: async (ctx) => ({ attempt: ctx.attempt, resumedFrom: ctx.checkpointValue }),
    },
  };
}

describe.each(DIALECTS)('tracked operations across processes on %s', (dialect) => {
  // Before the hook below, so its afterEach runs last: children and runners stop first.
  const freshStorage = storagePerTest(dialect);
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(): Promise<{ location: TestStorageLocation; storage: Storage }> {
    const storage = await freshStorage();
    return { location: storage.location, storage };
  }

  function trackChild(child: ChildProcess): ChildProcess {
    cleanups.push(() => killRunner(child));
    return child;
  }

  function trackRunner(runner: OperationRunner): OperationRunner {
    cleanups.push(() => runner.stop({ graceMs: 0 }));
    return runner;
  }

  it('recovers after a runner process is killed: nothing stays RUNNING, resumable work resumes', async () => {
    const { location, storage } = await setUp();
    const child = trackChild(await spawnRunner(location, 'crash', LEASE_MS));
    // Submitting needs the kinds registered; this runner is not started until the child is gone.
    const recovering = trackRunner(
      new OperationRunner({ storage, leaseMs: LEASE_MS, pollMs: 100 }),
    );
    for (const [kind, handler] of Object.entries(recoveryHandlers())) {
      recovering.register(kind, handler);
    }
    const slow = await recovering.submit({
      tenant: TENANT,
      kind: TEST_SLOW,
      request: {},
      createdBy: 'u',
    });
    const resumable = await recovering.submit({
      tenant: TENANT,
      kind: TEST_RESUMABLE,
      request: {},
      createdBy: 'u',
    });
    // Kill only once the child really is mid-run: both RUNNING, the checkpoint stored.
    await waitFor('the child to be mid-run', async () => {
      const rows = await storage.db
        .selectFrom('operations')
        .select(['state', 'checkpoint_json', 'progress_message'])
        .where('id', 'in', [slow.id, resumable.id])
        .execute();
      return (
        rows.length === 2 &&
        rows.every((r) => r.state === 'RUNNING') &&
        rows.some((r) => r.checkpoint_json !== null) &&
        rows.some((r) => r.progress_message === 'started')
      );
    });
    await killRunner(child);

    recovering.start();
    const finished = await waitFor('both operations to finish', async () => {
      const [a, b] = await Promise.all([
        recovering.get(TENANT, slow.id),
        recovering.get(TENANT, resumable.id),
      ]);
      return a && b && a.finishedAt !== null && b.finishedAt !== null
        ? ([a, b] as const)
        : undefined;
    });
    const [slowAfter, resumableAfter] = finished;
    expect(slowAfter.state).toBe('FAILED');
    expect(slowAfter.error).toEqual({
      code: 'aborted',
      message: 'interrupted: the server running it stopped',
    });
    expect(slowAfter.progress.message).toBe('started');
    expect(resumableAfter.state).toBe('SUCCEEDED');
    expect(resumableAfter.result).toEqual({ attempt: 2, resumedFrom: { step: 1 } });
    const running = await storage.db
      .selectFrom('operations')
      .select('id')
      .where('state', '=', 'RUNNING')
      .execute();
    expect(running).toEqual([]);
  });

  it.runIf(dialect === 'postgres')(
    'two runner processes on one database run each of 40 operations exactly once',
    async () => {
      const { location, storage } = await setUp();
      await storage.db.schema
        .createTable(EXECUTIONS_TABLE)
        .addColumn('operation_id', 'text', (c) => c.notNull())
        .addColumn('pid', 'integer', (c) => c.notNull())
        .execute();
      const children = await Promise.all([
        // A long lease: nothing crashes here, and a stalled child must not look dead.
        spawnRunner(location, 'count', 10_000),
        spawnRunner(location, 'count', 10_000),
      ]);
      children.forEach(trackChild);
      const submitter = new OperationRunner({ storage });
      submitter.register(TEST_COUNTED, { resumable: false, run: async () => undefined });
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const op = await submitter.submit({
          tenant: TENANT,
          kind: TEST_COUNTED,
          request: { i },
          createdBy: 'u',
        });
        ids.push(op.id);
      }
      await waitFor(
        'all 40 operations to finish',
        async () => {
          const page = await submitter.list(TENANT, { pageSize: 100 });
          return (
            page.operations.every((o) => o.finishedAt !== null) && page.operations.length === 40
          );
        },
        { timeoutMs: 40_000, intervalMs: 100 },
      );
      const page = await submitter.list(TENANT, { pageSize: 100 });
      expect(page.operations.map((o) => o.state)).toEqual(Array(40).fill('SUCCEEDED'));
      const executions = await sql<{ operation_id: string; pid: number }>`
        select operation_id, pid from ${sql.table(EXECUTIONS_TABLE)}`.execute(storage.db);
      const perOperation = new Map<string, number>();
      for (const row of executions.rows) {
        perOperation.set(row.operation_id, (perOperation.get(row.operation_id) ?? 0) + 1);
      }
      expect([...perOperation.keys()].sort()).toEqual([...ids].sort());
      expect([...perOperation.values()].every((n) => n === 1)).toBe(true);
      // Both processes took part, so the claims really competed.
      const pids = new Set(executions.rows.map((r) => Number(r.pid)));
      expect(pids).toEqual(new Set(children.map((c) => c.pid)));
    },
  );
});
