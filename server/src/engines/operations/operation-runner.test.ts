import { describe, expect, it, onTestFinished, vi } from 'vitest';
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
import { StoreError } from '../errors.js';
import type { OperationContext } from './types.js';

const TENANT = 'acme';

describe.each(DIALECTS)('OperationRunner on %s', (dialect) => {
  const harness = useRunners(dialect);

  it('runs a submitted operation to SUCCEEDED, storing progress while it runs and its result', async () => {
    const runner = await harness.runner();
    const halfway = deferred();
    let seen: OperationContext | undefined;
    runner.register<{ treeId: string }, unknown>('BACKUP', {
      resumable: false,
      async run(ctx) {
        seen = ctx;
        for (let i = 1; i <= 50; i++) ctx.progress({ done: i, total: 100, unit: 'entries' });
        await halfway.promise;
        for (let i = 51; i <= 100; i++) ctx.progress({ done: i, message: `entry ${i}` });
        return { backupId: 'b-1', treeId: ctx.request.treeId };
      },
    });
    runner.start();
    const submitted = await runner.submit({
      tenant: TENANT,
      kind: 'BACKUP',
      request: { treeId: 'orders' },
      targetId: 'orders',
      trackingId: 'track-1',
      createdBy: 'alice',
    });
    expect(submitted).toMatchObject({ state: 'QUEUED', kind: 'BACKUP', targetId: 'orders' });
    // Throttled writes still land while the handler is busy.
    const midway = await waitFor('progress while running', async () => {
      const op = await runner.get(TENANT, submitted.id);
      return op?.progress.done === 50 ? op : undefined;
    });
    expect(midway).toMatchObject({ state: 'RUNNING', progress: { total: 100, unit: 'entries' } });
    expect(midway.startedAt).not.toBeNull();
    halfway.resolve();

    const done = await finished(runner, TENANT, submitted.id);
    expect(done).toMatchObject({
      id: submitted.id,
      tenant: TENANT,
      state: 'SUCCEEDED',
      trackingId: 'track-1',
      createdBy: 'alice',
      cancelRequested: false,
      progress: { done: 100, total: 100, unit: 'entries', message: 'entry 100' },
      result: { backupId: 'b-1', treeId: 'orders' },
    });
    expect(done.error).toBeUndefined();
    expect(done.finishedAt).toBeGreaterThanOrEqual(done.startedAt ?? Infinity);
    expect(seen).toMatchObject({ tenant: TENANT, kind: 'BACKUP', attempt: 1, createdBy: 'alice' });
  });

  it('writes progress at most about four times a second and keeps the last report', async () => {
    const writes = vi.spyOn(OperationStore.prototype, 'updateProgress');
    onTestFinished(() => writes.mockRestore());
    const runner = await harness.runner();
    let elapsed = 0;
    runner.register('BACKUP', {
      resumable: false,
      async run(ctx) {
        const started = performance.now();
        for (let round = 1; round <= 12; round++) {
          for (let i = 1; i <= 100; i++)
            ctx.progress({ done: round * 100 + i, message: `r${round}` });
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        elapsed = performance.now() - started;
      },
    });
    runner.start();
    const op = await runner.submit({ tenant: TENANT, kind: 'BACKUP', request: {}, createdBy: 'u' });
    const done = await finished(runner, TENANT, op.id);
    expect(done.progress).toMatchObject({ done: 1300, message: 'r12' });
    expect(writes.mock.calls.length).toBeGreaterThan(0);
    expect(writes.mock.calls.length).toBeLessThanOrEqual(Math.ceil(elapsed / 250) + 1);
  });

  it('claims an operation submitted on this server at once, without reading the queue', async () => {
    const queueReads = vi.spyOn(OperationStore.prototype, 'findQueued');
    const orphanReads = vi.spyOn(OperationStore.prototype, 'findExpired');
    onTestFinished(() => {
      queueReads.mockRestore();
      orphanReads.mockRestore();
    });
    const runner = await harness.runner({ pollMs: 60_000 });
    const running = deferred();
    const gate = deferred();
    runner.register('BACKUP', {
      resumable: false,
      async run() {
        running.resolve();
        await gate.promise;
      },
    });
    runner.start();
    await waitFor('the first poll', () => queueReads.mock.calls.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [queueBefore, orphansBefore] = [
      queueReads.mock.calls.length,
      orphanReads.mock.calls.length,
    ];
    const op = await runner.submit({ tenant: TENANT, kind: 'BACKUP', request: {}, createdBy: 'u' });
    await running.promise;
    expect(runner.runningIds()).toEqual([op.id]);
    expect(queueReads.mock.calls.length).toBe(queueBefore);
    expect(orphanReads.mock.calls.length).toBe(orphansBefore);
    gate.resolve();
    expect(await finished(runner, TENANT, op.id)).toMatchObject({ state: 'SUCCEEDED' });
  });

  it('runs at most `concurrency` operations at once, oldest first, woken by submits', async () => {
    // A poll a minute away: only wake-ups (a submit, a freed slot) can make this test pass.
    // Distinct creation times: within one millisecond FIFO order falls back to the random id.
    let last = 0;
    const clock = () => (last = Math.max(last + 1, Date.now()));
    const runner = await harness.runner({ concurrency: 2, pollMs: 60_000, clock });
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => deferred());
    runner.register<number, unknown>('BACKUP', {
      resumable: false,
      async run(ctx) {
        started.push(ctx.request);
        await gates[ctx.request]?.promise;
      },
    });
    const ops = [];
    for (let i = 0; i < 5; i++) {
      ops.push(await runner.submit({ tenant: TENANT, kind: 'BACKUP', request: i, createdBy: 'u' }));
    }
    runner.start();
    await waitFor('two to start', () => started.length === 2);
    expect(runner.runningIds().sort()).toEqual([ops[0]?.id, ops[1]?.id].sort());
    gates[1]?.resolve();
    await waitFor('a freed slot to be used', () => started.length === 3);
    expect(started).toEqual([0, 1, 2]);
    expect(runner.runningIds()).toHaveLength(2);
    gates.forEach((g) => g.resolve());
    await finished(runner, TENANT, ops[4]?.id ?? '');
    expect(started).toEqual([0, 1, 2, 3, 4]);
    const late = await runner.submit({
      tenant: TENANT,
      kind: 'BACKUP',
      request: 9,
      createdBy: 'u',
    });
    expect((await finished(runner, TENANT, late.id)).state).toBe('SUCCEEDED');
  });

  it('turns 50 concurrent identical submits with one tracking id into one operation', async () => {
    const runner = await harness.runner();
    runner.register('BACKUP', { resumable: false, run: async () => undefined });
    const submits = Array.from({ length: 50 }, (_, i) =>
      runner.submit({
        tenant: TENANT,
        kind: 'BACKUP',
        // Key order differs between callers; the request is still the same.
        request: i % 2 ? { a: 1, b: [1, { y: 2, x: 1 }] } : { b: [1, { x: 1, y: 2 }], a: 1 },
        trackingId: 'same',
        createdBy: 'alice',
      }),
    );
    const records = await Promise.all(submits);
    expect(new Set(records.map((r) => r.id)).size).toBe(1);
    const page = await runner.list(TENANT);
    expect(page.operations.map((o) => o.id)).toEqual([records[0]?.id]);
  });

  it('refuses a tracking id reused with another request or kind, but not in another tenant', async () => {
    const runner = await harness.runner();
    runner.register('BACKUP', { resumable: false, run: async () => undefined });
    runner.register('RESTORE', { resumable: false, run: async () => undefined });
    const base = { tenant: TENANT, kind: 'BACKUP', trackingId: 't-1', createdBy: 'alice' };
    const first = await runner.submit({ ...base, request: { treeId: 'a' } });
    await expect(runner.submit({ ...base, request: { treeId: 'b' } })).rejects.toMatchObject({
      code: 'already_exists',
    });
    await expect(
      runner.submit({ ...base, kind: 'RESTORE', request: { treeId: 'a' } }),
    ).rejects.toMatchObject({ code: 'already_exists' });
    const other = await runner.submit({ ...base, tenant: 'globex', request: { treeId: 'b' } });
    expect(other.id).not.toBe(first.id);
    // Without a tracking id every submit is a new operation.
    const [x, y] = await Promise.all([
      runner.submit({ ...base, trackingId: undefined, request: {} }),
      runner.submit({ ...base, trackingId: '', request: {} }),
    ]);
    expect(x.id).not.toBe(y.id);
  });

  it('finds the operation a tracking id names before any submit, matching the caller request', async () => {
    const runner = await harness.runner();
    runner.register('BACKUP', { resumable: false, run: async () => undefined });
    const base = { tenant: TENANT, kind: 'BACKUP', trackingId: 't-find', createdBy: 'alice' };
    expect(await runner.findTracked({ ...base, request: { at: 1 } })).toBeUndefined();
    expect(
      await runner.findTracked({ ...base, trackingId: undefined, request: { at: 1 } }),
    ).toBeUndefined();
    // The stored request holds a "now"; a retry matches what the caller asked, not that.
    const first = await runner.submit({ ...base, request: { at: 1 }, callerRequest: { w: 7 } });
    const retry = { ...base, request: { at: 2 }, callerRequest: { w: 7 } };
    expect((await runner.findTracked(retry))?.id).toBe(first.id);
    expect((await runner.submit(retry)).id).toBe(first.id);
    await expect(runner.findTracked({ ...retry, callerRequest: { w: 8 } })).rejects.toMatchObject({
      code: 'already_exists',
    });
    expect(await runner.findTracked({ ...retry, tenant: 'globex' })).toBeUndefined();
  });

  it('refuses a kind no engine registered with unimplemented', async () => {
    const runner = await harness.runner();
    const error = await runner
      .submit({ tenant: TENANT, kind: 'CATALOG_SCRUB', request: {}, createdBy: 'alice' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({
      code: 'unimplemented',
      message: 'no engine on this server runs operations of kind CATALOG_SCRUB',
    });
  });

  it('cancels a queued operation at once, and its handler never runs', async () => {
    const runner = await harness.runner();
    const ran: string[] = [];
    runner.register('BACKUP', {
      resumable: false,
      run: async (ctx) => void ran.push(ctx.operationId),
    });
    const doomed = await runner.submit({
      tenant: TENANT,
      kind: 'BACKUP',
      request: 1,
      createdBy: 'u',
    });
    const cancelled = await runner.cancel(TENANT, doomed.id);
    expect(cancelled).toMatchObject({
      state: 'CANCELLED',
      cancelRequested: true,
      error: { code: 'cancelled' },
    });
    expect(cancelled?.finishedAt).not.toBeNull();
    // FIFO: once a later operation has run, the cancelled one would have been claimed first.
    const later = await runner.submit({
      tenant: TENANT,
      kind: 'BACKUP',
      request: 2,
      createdBy: 'u',
    });
    runner.start();
    await finished(runner, TENANT, later.id);
    expect(ran).toEqual([later.id]);
    expect((await runner.get(TENANT, doomed.id))?.state).toBe('CANCELLED');
  });

  it('cancels a running operation through its signal and records CANCELLED', async () => {
    const runner = await harness.runner();
    const reasons: unknown[] = [];
    runner.register('BACKUP', {
      resumable: false,
      async run(ctx) {
        await untilAborted(ctx.signal).catch((reason: unknown) => {
          reasons.push(reason);
          ctx.throwIfCancelled();
        });
      },
    });
    runner.start();
    const op = await runner.submit({ tenant: TENANT, kind: 'BACKUP', request: {}, createdBy: 'u' });
    await inState(runner, TENANT, op.id, 'RUNNING');
    const answer = await runner.cancel(TENANT, op.id);
    expect(answer).toMatchObject({ state: 'RUNNING', cancelRequested: true });
    const done = await finished(runner, TENANT, op.id);
    expect(done).toMatchObject({ state: 'CANCELLED', cancelRequested: true });
    expect(done.error).toEqual({ code: 'cancelled', message: 'the operation was cancelled' });
    expect(reasons).toEqual([expect.objectContaining({ code: 'cancelled' })]);
  });

  it('passes a cancel made on another replica to the handler running here', async () => {
    const worker = await harness.runner({ reclaimOnStart: false });
    const other = await harness.runner({ reclaimOnStart: false });
    worker.register('BACKUP', { resumable: false, run: (ctx) => untilAborted(ctx.signal) });
    worker.start();
    const op = await worker.submit({ tenant: TENANT, kind: 'BACKUP', request: {}, createdBy: 'u' });
    await inState(worker, TENANT, op.id, 'RUNNING');
    await other.cancel(TENANT, op.id);
    expect((await finished(worker, TENANT, op.id)).state).toBe('CANCELLED');
  });

  it('leaves a finished operation unchanged when it is cancelled', async () => {
    const runner = await harness.runner();
    runner.register('BACKUP', { resumable: false, run: async () => ({ ok: true }) });
    runner.start();
    const op = await runner.submit({ tenant: TENANT, kind: 'BACKUP', request: {}, createdBy: 'u' });
    const done = await finished(runner, TENANT, op.id);
    expect(await runner.cancel(TENANT, op.id)).toEqual(done);
  });

  it('records a StoreError of the handler as FAILED with its code and message', async () => {
    const runner = await harness.runner();
    runner.register('RESTORE', {
      resumable: false,
      run: () => Promise.reject(new StoreError('not_found', 'backup b-9 does not exist')),
    });
    runner.start();
    const op = await runner.submit({
      tenant: TENANT,
      kind: 'RESTORE',
      request: {},
      createdBy: 'u',
    });
    const done = await finished(runner, TENANT, op.id);
    expect(done).toMatchObject({ state: 'FAILED' });
    expect(done.error).toEqual({ code: 'not_found', message: 'backup b-9 does not exist' });
  });

  it('records any other failure as internal with a generic message and logs the detail', async () => {
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const runner = await harness.runner({ logger });
    runner.register('RESTORE', {
      resumable: false,
      run: () => Promise.reject(new Error('password=hunter2 in a stack trace')),
    });
    runner.start();
    const op = await runner.submit({
      tenant: TENANT,
      kind: 'RESTORE',
      request: {},
      createdBy: 'u',
    });
    const done = await finished(runner, TENANT, op.id);
    expect(done.state).toBe('FAILED');
    expect(done.error?.code).toBe('internal');
    expect(done.error?.message).not.toContain('hunter2');
    expect(JSON.stringify(logger.error.mock.calls)).toContain(op.id);
  });
});
