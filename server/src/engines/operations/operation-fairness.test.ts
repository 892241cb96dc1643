import { describe, expect, it } from 'vitest';
import { finished, useRunners } from '../../../test/operations/runner-fixture.js';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { OperationStore } from '../../storage/operations/operation-store.js';
import { TenantTurns } from './tenant-turns.js';

const noop = { resumable: false, run: async () => undefined };
const POLICY = { resumableKinds: [], maxAttempts: 5 };

describe.each(DIALECTS)('fair pick across tenants on %s', (dialect) => {
  const harness = useRunners(dialect);

  it('reads a tenant with nothing running before one that runs operations, and tenants take turns', async () => {
    let now = 1_000;
    const runner = await harness.runner({ clock: () => now });
    runner.register('BACKUP', noop);
    const submit = async (tenant: string) => {
      now += 1;
      return runner.submit({ tenant, kind: 'BACKUP', request: now, createdBy: 'u' });
    };
    const flood = [];
    for (let i = 0; i < 6; i++) flood.push(await submit('b'));
    const a = await submit('a');
    const [c1, c2] = [await submit('c'), await submit('c')];
    // Two of b's run (claimed as another replica would).
    const store = new OperationStore(await harness.storage());
    for (const op of flood.slice(0, 2)) {
      await store.claim({ id: op.id, attempts: 0 }, 'elsewhere', now, 60_000, POLICY);
    }

    const order = (await store.findQueued(['BACKUP'], 100)).map((row) => row.id);
    expect(order).toEqual([a.id, c1!.id, c2!.id, ...flood.slice(2).map((op) => op.id)]);
  });

  it('starts another tenant’s operation as soon as one of the flooding tenant’s runs ends', async () => {
    const started: string[] = [];
    // b's first run holds until a has submitted, however slow the database is to queue b's others.
    let releaseFirst!: () => void;
    const aSubmitted = new Promise<void>((resolve) => (releaseFirst = resolve));
    const runner = await harness.runner({ concurrency: 1 });
    runner.register('BACKUP', {
      resumable: false,
      async run(ctx) {
        started.push(`${ctx.tenant}:${String(ctx.request)}`);
        if (started.length === 1) await aSubmitted;
        await new Promise((resolve) => setTimeout(resolve, 20));
      },
    });
    runner.start();
    const flood = [];
    for (let i = 1; i <= 5; i++) {
      flood.push(await runner.submit({ tenant: 'b', kind: 'BACKUP', request: i, createdBy: 'u' }));
    }
    const a = await runner.submit({ tenant: 'a', kind: 'BACKUP', request: 1, createdBy: 'u' });
    releaseFirst();
    await finished(runner, 'a', a.id);
    // b's first run was already going; a's capture is next, ahead of b's four older ones.
    expect(started.slice(0, 2)).toEqual(['b:1', 'a:1']);
    for (const op of flood) await finished(runner, 'b', op.id);
  });
});

describe.each(DIALECTS)('preview slots on %s', (dialect) => {
  const harness = useRunners(dialect);

  it('runs at most previewSlots previews at once, leaving the other slots to other work', async () => {
    const runner = await harness.runner({ concurrency: 2, previewSlots: 1 });
    const running = new Set<string>();
    let mostPreviews = 0;
    // The first preview holds its slot until the capture has run: only a second slot free for
    // other work lets that happen (else the test times out), however slow the machine.
    let captureRan!: () => void;
    const captured = new Promise<void>((resolve) => (captureRan = resolve));
    const hold = (wait: () => Promise<unknown>, after?: () => void) => ({
      resumable: false,
      async run(ctx: { operationId: string; kind: string }) {
        running.add(`${ctx.kind}:${ctx.operationId}`);
        mostPreviews = Math.max(
          mostPreviews,
          [...running].filter((r) => r.startsWith('RESTORE_PREVIEW')).length,
        );
        await wait();
        running.delete(`${ctx.kind}:${ctx.operationId}`);
        after?.();
      },
    });
    const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
    runner.register(
      'RESTORE_PREVIEW',
      hold(() => Promise.all([captured, pause()])),
    );
    runner.register(
      'BACKUP',
      hold(pause, () => captureRan()),
    );
    runner.start();
    const previews = [];
    for (let i = 0; i < 3; i++) {
      previews.push(
        await runner.submit({ tenant: 'b', kind: 'RESTORE_PREVIEW', request: i, createdBy: 'v' }),
      );
    }
    const capture = await runner.submit({
      tenant: 'a',
      kind: 'BACKUP',
      request: 0,
      createdBy: 'u',
    });
    const done = await finished(runner, 'a', capture.id);
    // The capture took the second slot while the first preview ran, not after all three.
    const last = await finished(runner, 'b', previews[2]!.id);
    expect(done.finishedAt!).toBeLessThanOrEqual(last.startedAt!);
    expect(mostPreviews).toBe(1);
  });
});

describe('TenantTurns', () => {
  it('breaks a tie of share by the tenant served least recently, then by age', () => {
    const turns = new TenantTurns();
    turns.servedNow('b');
    const row = (id: string, tenant: string, share: number, created: number) => ({
      id,
      attempts: 0,
      kind: 'BACKUP',
      tenant,
      share,
      created_at: created,
    });
    const ordered = turns.order([
      row('b2', 'b', 1, 1),
      row('a1', 'a', 1, 5),
      row('b3', 'b', 2, 2),
      row('c1', 'c', 1, 9),
    ]);
    expect(ordered.map((r) => r.id)).toEqual(['a1', 'c1', 'b2', 'b3']);
  });
});
