// The preview flood of the security review: 50 concurrent StartRestorePreview loops of one
// tenant's viewer while another tenant captures a backup and polls its status. The caps, the
// fair pick and the per-caller start rate keep the second tenant served (docs/security.md,
// "Operation caps and rate limits").
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupControlService,
  BackupInsightService,
  IdentityService,
  TreeDataService,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, startBackupServer, type BackupServer } from '../backup/backup-fixture.js';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { startFlooder } from './spawn-flooder.js';

const STARTERS = 50;
const FLOOD_MS = 6_000;
/** Tenant a's status polls during the flood: p99 latency at most this (generous for CI). */
const POLL_P99_MS = 2_000;
/** How much the server's process may grow over the flood. */
const RSS_GROWTH_BOUND = 256 * 1024 * 1024;
/** Beyond the longest preview the capture may wait for a slot (polls, claim, a loaded CI box). */
const CLAIM_SLACK_MS = 3_000;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

describe.each(DIALECTS)('a preview flood of one tenant on %s', (dialect) => {
  let s: BackupServer;
  let backupOfB = '';
  let b: ReturnType<typeof clients>;
  const clients = (token: string) => {
    const transport = createGrpcTransport({
      baseUrl: s.t.server.grpcUrl,
      interceptors: [bearerInterceptor(token)],
    });
    return {
      insight: createClient(BackupInsightService, transport),
      backup: createClient(BackupControlService, transport),
      data: createClient(TreeDataService, transport),
      identity: createClient(IdentityService, transport),
    };
  };
  const issue = async (tenant: string, role: string) =>
    (await s.t.server.tokens.issue({ tenant, roles: [role] })).token;

  beforeAll(async () => {
    s = await startBackupServer(dialect);
    // Tenant b: a backup of 2 000 entries, so each preview takes a while.
    b = clients(await issue('b', 'admin'));
    for (let batch = 0; batch < 4; batch++) {
      await b.data.putEntries({
        treeId: 'catalog',
        entries: Array.from({ length: 500 }, (_, i) => ({
          key: `item-${batch}-${i}`,
          valueJson: JSON.stringify({ batch, i, text: 'x'.repeat(200) }),
        })),
      });
    }
    const handle = await b.backup.startBackup({ name: 'b-full', scope: { treeId: 'catalog' } });
    for (let i = 0; i < 600 && backupOfB === ''; i++) {
      const op = await s.t.server.runner.get('b', handle.operationId);
      if (op?.state === 'SUCCEEDED') backupOfB = (op.result as { backupId: string }).backupId;
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(backupOfB).not.toBe('');
    await s.put('orders', Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`o${i}`, i])));
  }, 60_000);
  afterAll(async () => {
    await s?.t.dispose();
  });

  it('keeps the other tenant served: its capture is claimed within one preview’s length, its polls answer, b is told the cap and the limit', async () => {
    const rssBefore = process.memoryUsage().rss;
    // b's viewer floods from its own process, as an attacker would: its CPU is not the server's.
    const flooder = await startFlooder({
      grpcUrl: s.t.server.grpcUrl,
      token: await issue('b', 'viewer'),
      backupId: backupOfB,
      starters: STARTERS,
      ms: FLOOD_MS,
    });
    const until = Date.now() + FLOOD_MS;

    // Tenant a (the bootstrap admin of `default`) captures while the flood runs, and polls.
    await new Promise((r) => setTimeout(r, 500));
    const capture = await s.backup.startBackup({ name: 'a-full', scope: { treeId: 'orders' } });
    const pollLatencies: number[] = [];
    let captureState = '';
    while (Date.now() < until || captureState !== 'SUCCEEDED') {
      const started = performance.now();
      await s.backup.getBackupOperationStatus({ operationId: capture.operationId });
      pollLatencies.push(performance.now() - started);
      captureState = (await s.t.server.runner.get('default', capture.operationId))?.state ?? '';
      expect(['QUEUED', 'RUNNING', 'SUCCEEDED']).toContain(captureState);
      await new Promise((r) => setTimeout(r, 50));
    }
    const flood = await flooder.done;

    const captured = await s.t.server.runner.get('default', capture.operationId);
    const waited = (captured?.startedAt ?? Infinity) - (captured?.createdAt ?? 0);
    const previews = (
      await s.t.server.runner.list('b', { pageSize: 1000, kinds: ['RESTORE_PREVIEW'] })
    ).operations.filter((op) => op.startedAt !== null && op.finishedAt !== null);
    const longestPreview = Math.max(
      0,
      ...previews.map((op) => (op.finishedAt ?? 0) - (op.startedAt ?? 0)),
    );
    expect(waited).toBeLessThanOrEqual(longestPreview + CLAIM_SLACK_MS);
    expect(percentile(pollLatencies, 99)).toBeLessThanOrEqual(POLL_P99_MS);
    // The rate limit let a burst through, the cap refused past 4 at once, the limit the rest.
    expect(flood.other).toEqual([]);
    expect(flood.accepted).toBeGreaterThan(0);
    expect(flood.accepted).toBeLessThanOrEqual(20 + Math.ceil(FLOOD_MS / 1000) + 1);
    expect(flood.refused.cap.count).toBeGreaterThan(0);
    expect(flood.refused.cap.message).toMatch(
      /^tenant b has 4 previews and dry-runs queued or running, the most a tenant may have \(4\); retry when one ends, in about \d+ s$/,
    );
    expect(Number(flood.refused.cap.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(flood.refused.rate.count).toBeGreaterThan(0);
    expect(flood.refused.rate.message).toMatch(
      /^StartRestorePreview: previews, comparisons and dry-runs are limited to 60 a minute per caller, 20 at once; retry in \d+ s$/,
    );
    expect(Number(flood.refused.rate.retryAfter)).toBeGreaterThanOrEqual(1);
    // The process lives and has not grown past the bound.
    expect(await codeOf(s.data.listTrees({}))).toBe('ok');
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(RSS_GROWTH_BOUND);
    // Every refused start is in b's audit trail, and b's admin still reads a full page of it.
    const page = await b.identity.listAuditRecords({ pageSize: 1000 });
    expect(page.records.length).toBeGreaterThan(0);
  }, 60_000);

  it('at the cap, the same tracked request sent again gets its operation back', async () => {
    // Once the flood's previews are done, a stopped runner: the next four stay queued, so the
    // tenant is at its cap for as long as the test needs.
    for (let i = 0; i < 600; i++) {
      const active = await s.t.server.runner.list('b', { states: ['QUEUED', 'RUNNING'] });
      if (active.operations.length === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await s.t.server.runner.stop({ graceMs: 0 });
    const viewer = clients(await issue('b', 'viewer')).insight;
    const startedIds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const handle = await viewer.startRestorePreview({
        backupId: backupOfB,
        trackingOperationId: `tracked-${i}`,
      });
      startedIds.push(handle.operationId);
    }
    const fifth = await viewer
      .startRestorePreview({ backupId: backupOfB, trackingOperationId: 'tracked-new' })
      .then(() => 'ok' as const)
      .catch((error: unknown) => ConnectError.from(error).code);
    expect(fifth).toBe(Code.ResourceExhausted);
    const again = await viewer.startRestorePreview({
      backupId: backupOfB,
      trackingOperationId: 'tracked-3',
    });
    expect(startedIds).toContain(again.operationId);
  });
});
