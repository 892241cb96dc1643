import { describe, expect, it } from 'vitest';
import {
  deferred,
  finished,
  inState,
  untilAborted,
  useRunners,
} from '../../../test/operations/runner-fixture.js';
import { waitFor } from '../../../test/operations/wait-for.js';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { OperationStore } from '../../storage/operations/operation-store.js';

const TENANT = 'acme';

describe.each(DIALECTS)('operation lifecycle on %s', (dialect) => {
  const harness = useRunners(dialect);

  it('lets running handlers finish within the stop grace period', async () => {
    const runner = await harness.runner();
    const release = deferred();
    runner.register('BACKUP', { resumable: false, run: () => release.promise.then(() => 'done') });
    runner.start();
    const op = await runner.submit({ tenant: TENANT, kind: 'BACKUP', request: {}, createdBy: 'u' });
    await inState(runner, TENANT, op.id, 'RUNNING');
    const stopped = runner.stop({ graceMs: 30_000 });
    setTimeout(release.resolve, 100);
    await stopped;
    expect(await runner.get(TENANT, op.id)).toMatchObject({ state: 'SUCCEEDED', result: 'done' });
  });

  it('on stop hands resumable work back to the queue and fails the rest as interrupted', async () => {
    const first = await harness.runner();
    const reasons: unknown[] = [];
    const hang = async (ctx: { signal: AbortSignal }) =>
      untilAborted(ctx.signal).catch((reason: unknown) => {
        reasons.push(reason);
        throw reason;
      });
    first.register('BACKUP', { resumable: false, run: hang });
    first.register('RESTORE', { resumable: true, run: hang });
    first.start();
    const submit = (kind: string) =>
      first.submit({ tenant: TENANT, kind, request: {}, createdBy: 'u' });
    const backup = await submit('BACKUP');
    const restore = await submit('RESTORE');
    await inState(first, TENANT, backup.id, 'RUNNING');
    await inState(first, TENANT, restore.id, 'RUNNING');
    await first.stop({ graceMs: 50 });

    expect(reasons).toEqual([
      expect.objectContaining({ code: 'unavailable' }),
      expect.objectContaining({ code: 'unavailable' }),
    ]);
    expect(await first.get(TENANT, backup.id)).toMatchObject({
      state: 'FAILED',
      error: { code: 'aborted', message: 'the server running it was stopped (shutdown)' },
    });
    expect(await first.get(TENANT, restore.id)).toMatchObject({
      state: 'QUEUED',
      finishedAt: null,
    });

    const next = await harness.runner();
    next.register('RESTORE', { resumable: true, run: async (ctx) => ({ attempt: ctx.attempt }) });
    next.start();
    expect(await finished(next, TENANT, restore.id)).toMatchObject({
      state: 'SUCCEEDED',
      result: { attempt: 2 },
    });
  });

  it('abandons a handler that ignores its abort, and its late result changes nothing', async () => {
    const runner = await harness.runner();
    const late = deferred<string>();
    runner.register('BACKUP', { resumable: false, run: () => late.promise });
    runner.start();
    const op = await runner.submit({ tenant: TENANT, kind: 'BACKUP', request: {}, createdBy: 'u' });
    await inState(runner, TENANT, op.id, 'RUNNING');
    await runner.stop({ graceMs: 0 });
    const failed = await runner.get(TENANT, op.id);
    expect(failed).toMatchObject({
      state: 'FAILED',
      error: { message: 'the server running it was stopped (shutdown)' },
    });
    late.resolve('too late');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await runner.get(TENANT, op.id)).toEqual(failed);
  });

  it('keeps a run longer than its lease by renewing it, so no other runner takes it', async () => {
    // Renewed every 200 ms; only a stall of about 400 ms could let the other runner in.
    const leaseMs = 600;
    const runs: number[] = [];
    const handler = (id: number) => ({
      resumable: true,
      async run() {
        runs.push(id);
        await new Promise((resolve) => setTimeout(resolve, 3 * leaseMs));
        return id;
      },
    });
    const a = await harness.runner({ leaseMs, reclaimOnStart: false });
    const b = await harness.runner({ leaseMs, reclaimOnStart: false });
    a.register('RESTORE', handler(1));
    b.register('RESTORE', handler(2));
    const op = await a.submit({ tenant: TENANT, kind: 'RESTORE', request: {}, createdBy: 'u' });
    a.start();
    await inState(a, TENANT, op.id, 'RUNNING');
    b.start();
    expect((await finished(a, TENANT, op.id)).state).toBe('SUCCEEDED');
    expect(runs).toEqual([1]);
  });

  it('stops a handler whose lease another runner took, without recording anything', async () => {
    const storage = await harness.storage();
    const runner = await harness.runner({ leaseMs: 300 });
    const reasons: unknown[] = [];
    runner.register('BACKUP', {
      resumable: false,
      run: (ctx) => untilAborted(ctx.signal).catch((r: unknown) => void reasons.push(r)),
    });
    runner.start();
    const op = await runner.submit({ tenant: TENANT, kind: 'BACKUP', request: {}, createdBy: 'u' });
    await inState(runner, TENANT, op.id, 'RUNNING');
    await storage.db
      .updateTable('operations')
      .set({ lease_owner: 'someone-else' })
      .where('id', '=', op.id)
      .execute();
    await waitFor('the handler to be stopped', () => reasons.length > 0);
    expect(reasons).toEqual([expect.objectContaining({ code: 'aborted' })]);
    await waitFor('the runner to let go', () => runner.runningIds().length === 0);
    expect(await runner.get(TENANT, op.id)).toMatchObject({ state: 'RUNNING', finishedAt: null });
  });

  it('reclaims a RUNNING record with a live lease at start only on SQLite', async () => {
    const storage = await harness.storage();
    const store = new OperationStore(storage);
    const runner = await harness.runner();
    runner.register('RESTORE', { resumable: true, run: async (ctx) => ctx.checkpointValue });
    const ghost = await runner.submit({
      tenant: TENANT,
      kind: 'RESTORE',
      request: {},
      createdBy: 'u',
    });
    // A server that claimed it an hour-long lease ago and then vanished.
    const policy = { resumableKinds: ['RESTORE'], maxAttempts: 5 };
    const lease = { id: ghost.id, owner: 'gone', attempt: 1 };
    await store.claim({ id: ghost.id, attempts: 0 }, 'gone', Date.now(), 3_600_000, policy);
    await store.saveCheckpoint(lease, JSON.stringify({ step: 7 }), Date.now());
    runner.start();
    const probe = await runner.submit({
      tenant: TENANT,
      kind: 'RESTORE',
      request: 1,
      createdBy: 'u',
    });
    await finished(runner, TENANT, probe.id);
    const after = await runner.get(TENANT, ghost.id);
    if (dialect === 'sqlite') {
      expect(await finished(runner, TENANT, ghost.id)).toMatchObject({
        state: 'SUCCEEDED',
        result: { step: 7 },
      });
    } else {
      // Another replica may be alive and holding it: PostgreSQL waits for the lease to expire.
      expect(after?.state).toBe('RUNNING');
    }
  });

  it('an interrupted run that cannot resume ends SUCCEEDED when its handler finds the work done, FAILED otherwise', async () => {
    const storage = await harness.storage();
    const store = new OperationStore(storage);
    const runner = await harness.runner();
    const checked: string[] = [];
    runner.register<{ done: boolean }, unknown>('BACKUP', {
      resumable: false,
      run: () => new Promise(() => undefined),
      async completedBeforeInterruption(op) {
        checked.push(op.id);
        if (op.tenant !== TENANT) throw new Error('wrong tenant');
        return op.request.done ? { rebuiltFor: op.id } : undefined;
      },
    });
    const submit = (done: boolean) =>
      runner.submit({ tenant: TENANT, kind: 'BACKUP', request: { done }, createdBy: 'u' });
    const done = await submit(true);
    const notDone = await submit(false);
    // Claimed by a server that vanished; its lease ran out a minute ago.
    const policy = { resumableKinds: [], maxAttempts: 3 };
    for (const op of [done, notDone]) {
      await store.claim({ id: op.id, attempts: 0 }, 'gone', Date.now() - 120_000, 60_000, policy);
    }
    runner.start();
    expect(await finished(runner, TENANT, done.id)).toMatchObject({
      state: 'SUCCEEDED',
      result: { rebuiltFor: done.id },
    });
    expect(await finished(runner, TENANT, notDone.id)).toMatchObject({
      state: 'FAILED',
      error: { code: 'aborted' },
    });
    expect(checked.sort()).toEqual([done.id, notDone.id].sort());
  });
});
