import { describe, expect, it } from 'vitest';
import {
  deferred,
  finished,
  inState,
  useRunners,
} from '../../../test/operations/runner-fixture.js';
import { waitFor } from '../../../test/operations/wait-for.js';
import { DIALECTS } from '../../../test/support/test-storage.js';
import {
  BACKUP_OPERATION_KINDS,
  COMPLIANCE_OPERATION_KINDS,
  SCHEMA_OPERATION_KINDS,
} from '../operation-kinds.js';
import type { OperationRunner } from './operation-runner.js';

const noop = { resumable: false, run: async () => undefined };

/** Every page of a list, following next-page tokens. */
async function allPages(runner: OperationRunner, tenant: string, pageSize: number) {
  const ids: string[] = [];
  let pageToken = '';
  for (let pages = 0; pages < 100; pages++) {
    const page = await runner.list(tenant, { pageSize, pageToken });
    expect(page.operations.length).toBeLessThanOrEqual(pageSize);
    ids.push(...page.operations.map((o) => o.id));
    if (!page.nextPageToken) return ids;
    pageToken = page.nextPageToken;
  }
  throw new Error('paging did not end');
}

describe.each(DIALECTS)('operation queries on %s', (dialect) => {
  const harness = useRunners(dialect);

  it('shows an operation only to its tenant and to callers whose kinds include it', async () => {
    const runner = await harness.runner();
    runner.register('BACKUP', noop);
    runner.register('COMPLIANCE_SCAN', noop);
    const submit = (tenant: string, kind: string) =>
      runner.submit({ tenant, kind, request: {}, createdBy: 'u' });
    const backup = await submit('acme', 'BACKUP');
    const scan = await submit('acme', 'COMPLIANCE_SCAN');
    const foreign = await submit('globex', 'BACKUP');

    expect(await runner.get('globex', backup.id)).toBeUndefined();
    expect(await runner.get('acme', scan.id, BACKUP_OPERATION_KINDS)).toBeUndefined();
    expect((await runner.get('acme', scan.id, SCHEMA_OPERATION_KINDS))?.id).toBe(scan.id);
    expect((await runner.get('acme', scan.id, COMPLIANCE_OPERATION_KINDS))?.id).toBe(scan.id);
    expect(await runner.get('acme', backup.id, COMPLIANCE_OPERATION_KINDS)).toBeUndefined();

    const backups = await runner.list('acme', { kinds: BACKUP_OPERATION_KINDS });
    expect(backups.operations.map((o) => o.id)).toEqual([backup.id]);
    expect((await runner.list('acme', { kinds: [] })).operations).toEqual([]);
    const all = await runner.list('acme');
    expect(all.operations.map((o) => o.id).sort()).toEqual([backup.id, scan.id].sort());

    expect(await runner.cancel('acme', scan.id, BACKUP_OPERATION_KINDS)).toBeUndefined();
    expect(await runner.cancel('acme', foreign.id)).toBeUndefined();
    expect((await runner.get('acme', scan.id))?.state).toBe('QUEUED');
    expect((await runner.get('globex', foreign.id))?.state).toBe('QUEUED');
    expect((await runner.cancel('acme', scan.id, SCHEMA_OPERATION_KINDS))?.state).toBe('CANCELLED');
  });

  it('pages newest first with stable tokens, unaffected by operations added meanwhile', async () => {
    let now = 1_000_000;
    const runner = await harness.runner({ clock: () => now });
    runner.register('BACKUP', noop);
    const created: { id: string; createdAt: number }[] = [];
    for (let i = 0; i < 7; i++) {
      // Pairs share a creation time, so the id decides their order.
      if (i % 2 === 0) now += 10;
      const op = await runner.submit({
        tenant: 'acme',
        kind: 'BACKUP',
        request: i,
        createdBy: 'u',
      });
      created.push({ id: op.id, createdAt: op.createdAt });
    }
    const expected = [...created]
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
      .map((o) => o.id);

    const first = await runner.list('acme', { pageSize: 3 });
    expect(first.operations.map((o) => o.id)).toEqual(expected.slice(0, 3));
    now += 10;
    await runner.submit({ tenant: 'acme', kind: 'BACKUP', request: 'new', createdBy: 'u' });
    const second = await runner.list('acme', { pageSize: 3, pageToken: first.nextPageToken });
    expect(second.operations.map((o) => o.id)).toEqual(expected.slice(3, 6));
    const third = await runner.list('acme', { pageSize: 3, pageToken: second.nextPageToken });
    expect(third.operations.map((o) => o.id)).toEqual(expected.slice(6));
    expect(third.nextPageToken).toBe('');
    expect(await allPages(runner, 'acme', 2)).toHaveLength(8);
  });

  it('applies state, kind, target and creation-time filters together with paging', async () => {
    let now = 5_000;
    const runner = await harness.runner({ clock: () => now });
    const gate = deferred();
    runner.register('BACKUP', noop);
    runner.register('RESTORE', { resumable: false, run: () => gate.promise });
    const submit = (kind: string, targetId: string) => {
      now += 1;
      return runner.submit({ tenant: 'acme', kind, targetId, request: now, createdBy: 'u' });
    };
    const oldBackup = await submit('BACKUP', 'orders');
    const cutoff = now;
    const backupOrders = await submit('BACKUP', 'orders');
    const backupUsers = await submit('BACKUP', 'users');
    const restore = await submit('RESTORE', 'orders');
    runner.start();
    for (const op of [oldBackup, backupOrders, backupUsers]) await finished(runner, 'acme', op.id);
    await inState(runner, 'acme', restore.id, 'RUNNING');

    const ids = async (filter: Parameters<OperationRunner['list']>[1]) =>
      (await runner.list('acme', filter)).operations.map((o) => o.id);
    expect(await ids({ states: ['RUNNING'] })).toEqual([restore.id]);
    expect(await ids({ states: ['SUCCEEDED', 'RUNNING'], kinds: ['RESTORE'] })).toEqual([
      restore.id,
    ]);
    expect(await ids({ kinds: ['BACKUP'], targetId: 'orders' })).toEqual([
      backupOrders.id,
      oldBackup.id,
    ]);
    expect(await ids({ kinds: ['BACKUP'], createdAfter: cutoff })).toEqual([
      backupUsers.id,
      backupOrders.id,
    ]);
    const page = await runner.list('acme', { states: ['SUCCEEDED'], pageSize: 2 });
    expect(page.operations.map((o) => o.id)).toEqual([backupUsers.id, backupOrders.id]);
    const rest = await runner.list('acme', {
      states: ['SUCCEEDED'],
      pageSize: 2,
      pageToken: page.nextPageToken,
    });
    expect(rest.operations.map((o) => o.id)).toEqual([oldBackup.id]);
    gate.resolve();
  });

  it('defaults the page size to 50 and refuses sizes over 1000, bad tokens and unknown states', async () => {
    const runner = await harness.runner();
    runner.register('BACKUP', noop);
    await Promise.all(
      Array.from({ length: 51 }, (_, i) =>
        runner.submit({ tenant: 'acme', kind: 'BACKUP', request: i, createdBy: 'u' }),
      ),
    );
    const page = await runner.list('acme', { pageSize: 0 });
    expect(page.operations).toHaveLength(50);
    expect(page.nextPageToken).not.toBe('');
    expect((await runner.list('acme', { pageSize: 1000 })).operations).toHaveLength(51);
    for (const pageSize of [1001, -1, 2.5]) {
      await expect(runner.list('acme', { pageSize })).rejects.toMatchObject({
        code: 'invalid_argument',
        field: 'page_size',
      });
    }
    await expect(runner.list('acme', { pageToken: 'bm9wZQ' })).rejects.toMatchObject({
      code: 'invalid_argument',
      field: 'page_token',
    });
    await expect(runner.list('acme', { states: ['DONE'] })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
  });

  it('deletes only finished operations older than the retention', async () => {
    const day = 24 * 60 * 60_000;
    let now = 100 * day;
    const runner = await harness.runner({ clock: () => now, retentionMs: 30 * day });
    const gate = deferred();
    runner.register('BACKUP', noop);
    runner.register('RESTORE', { resumable: false, run: () => gate.promise });
    const submit = (kind: string) =>
      runner.submit({ tenant: 'acme', kind, request: Math.random(), createdBy: 'u' });
    const oldCancelled = await submit('BACKUP');
    await runner.cancel('acme', oldCancelled.id);
    const oldSucceeded = await submit('BACKUP');
    const oldRunning = await submit('RESTORE');
    runner.start();
    await finished(runner, 'acme', oldSucceeded.id);
    await inState(runner, 'acme', oldRunning.id, 'RUNNING');
    now += 29 * day;
    const recent = await submit('BACKUP');
    await finished(runner, 'acme', recent.id);
    expect(await runner.purgeExpired()).toBe(0);
    now += 2 * day;

    // The worker loop sweeps by itself once the clock has moved on.
    const left = await waitFor('the old finished operations to go', async () => {
      const ids = (await runner.list('acme')).operations.map((o) => o.id);
      return ids.length === 2 ? ids : undefined;
    });
    expect(left.sort()).toEqual([oldRunning.id, recent.id].sort());
    expect(await runner.purgeExpired()).toBe(0);
    gate.resolve();
  });
});
