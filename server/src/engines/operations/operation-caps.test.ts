import { describe, expect, it } from 'vitest';
import { deferred, finished, useRunners } from '../../../test/operations/runner-fixture.js';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { StoreError } from '../errors.js';
import type { OperationRunner } from './operation-runner.js';

const noop = { resumable: false, run: async () => undefined };

async function refusal(promise: Promise<unknown>): Promise<StoreError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('the submit was accepted');
}

function register(runner: OperationRunner, ...kinds: string[]) {
  for (const kind of kinds) runner.register(kind, noop);
}

describe.each(DIALECTS)('per-tenant operation caps on %s', (dialect) => {
  const harness = useRunners(dialect);

  it('refuses a preview over the tenant cap with ResourceExhausted naming the cap and when to retry', async () => {
    // Not started: everything stays QUEUED, so the count is exactly what was submitted.
    const runner = await harness.runner({ tenantCaps: { previews: 3, others: 5 } });
    register(runner, 'RESTORE_PREVIEW', 'POLICY_DRY_RUN', 'BACKUP');
    const submit = (tenant: string, kind: string, request: unknown = {}) =>
      runner.submit({ tenant, kind, request, createdBy: 'viewer' });
    await submit('b', 'RESTORE_PREVIEW', 1);
    await submit('b', 'POLICY_DRY_RUN', 2);
    await submit('b', 'RESTORE_PREVIEW', 3);

    const error = await refusal(submit('b', 'POLICY_DRY_RUN', 4));
    expect(error.code).toBe('resource_exhausted');
    expect(error.message).toMatch(
      /^tenant b has 3 previews and dry-runs queued or running, the most a tenant may have \(3\); retry when one ends, in about \d+ s$/,
    );
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Other tenants and other kinds have their own room.
    await expect(submit('a', 'RESTORE_PREVIEW')).resolves.toMatchObject({ state: 'QUEUED' });
    await expect(submit('b', 'BACKUP')).resolves.toMatchObject({ state: 'QUEUED' });
  });

  it('caps the other kinds together, separately from previews', async () => {
    const runner = await harness.runner({ tenantCaps: { previews: 1, others: 2 } });
    register(runner, 'BACKUP', 'RESTORE', 'BACKUP_DIFF');
    await runner.submit({ tenant: 'b', kind: 'BACKUP', request: 1, createdBy: 'u' });
    await runner.submit({ tenant: 'b', kind: 'RESTORE', request: 2, createdBy: 'u' });
    const error = await refusal(
      runner.submit({ tenant: 'b', kind: 'BACKUP', request: 3, createdBy: 'u' }),
    );
    expect(error.message).toMatch(
      /tenant b has 2 operations \(besides previews\) queued or running/,
    );
    await expect(
      runner.submit({ tenant: 'b', kind: 'BACKUP_DIFF', request: 4, createdBy: 'u' }),
    ).resolves.toMatchObject({ state: 'QUEUED' });
    // Work the server starts itself (a schedule) is counted but never refused.
    await expect(
      runner.submit({
        tenant: 'b',
        kind: 'BACKUP',
        request: 5,
        createdBy: 'scheduler',
        uncapped: true,
      }),
    ).resolves.toMatchObject({ state: 'QUEUED' });
  });

  it('returns the operation of a tracking id already used before looking at the cap', async () => {
    const runner = await harness.runner({ tenantCaps: { previews: 1 } });
    register(runner, 'RESTORE_PREVIEW');
    const first = await runner.submit({
      tenant: 'b',
      kind: 'RESTORE_PREVIEW',
      request: { backupId: 'x' },
      trackingId: 'retry-me',
      createdBy: 'viewer',
    });
    // The tenant is at its cap; the same request sent again still gets its handle back.
    const again = await runner.submit({
      tenant: 'b',
      kind: 'RESTORE_PREVIEW',
      request: { backupId: 'x' },
      trackingId: 'retry-me',
      createdBy: 'viewer',
    });
    expect(again.id).toBe(first.id);
    const other = await refusal(
      runner.submit({ tenant: 'b', kind: 'RESTORE_PREVIEW', request: {}, createdBy: 'viewer' }),
    );
    expect(other.code).toBe('resource_exhausted');
  });

  it('lets exactly the cap through when 50 submits race on two runners (replicas)', async () => {
    // Two runners: each queues its own submits in memory, so only the database lock keeps
    // them from both seeing room for one more.
    const runners = [
      await harness.runner({ tenantCaps: { previews: 4 } }),
      await harness.runner({ tenantCaps: { previews: 4 } }),
    ];
    for (const r of runners) register(r, 'RESTORE_PREVIEW');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        runners[i % 2]!.submit({
          tenant: 'b',
          kind: 'RESTORE_PREVIEW',
          request: i,
          createdBy: 'v',
        }),
      ),
    );
    const runner = runners[0]!;
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(4);
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(refused).toHaveLength(46);
    for (const o of refused) expect((o.reason as StoreError).code).toBe('resource_exhausted');
    expect((await runner.list('b', { pageSize: 100 })).operations).toHaveLength(4);
  });

  it('frees room when an operation ends, and estimates the retry from how long runs take', async () => {
    const runner = await harness.runner({ tenantCaps: { previews: 1 } });
    const release = deferred();
    runner.register('RESTORE_PREVIEW', {
      resumable: false,
      async run() {
        await release.promise;
      },
    });
    runner.start();
    const running = await runner.submit({
      tenant: 'b',
      kind: 'RESTORE_PREVIEW',
      request: 1,
      createdBy: 'v',
    });
    // No run has finished yet: the estimate falls back to 10 s less what the running one has run.
    const error = await refusal(
      runner.submit({ tenant: 'b', kind: 'RESTORE_PREVIEW', request: 2, createdBy: 'v' }),
    );
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(10);
    release.resolve();
    await finished(runner, 'b', running.id);
    await expect(
      runner.submit({ tenant: 'b', kind: 'RESTORE_PREVIEW', request: 3, createdBy: 'v' }),
    ).resolves.toMatchObject({ kind: 'RESTORE_PREVIEW' });
  });
});
