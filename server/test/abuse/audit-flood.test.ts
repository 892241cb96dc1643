// The anonymous audit flood (docs/security.md, "Audit trail limits"): refused PutEntry calls that
// name tenant acme and carry a 4 MB tree_id, many at once. Each used to be stored under acme with
// the whole tree id, until acme's admin could not read a page of ten records.
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { TreeDataService } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_FIELD_MAX } from '../../src/engines/audit/audit-fields.js';
import { AuditStore } from '../../src/storage/audit/audit-store.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { DIALECTS } from '../support/test-storage.js';
import { auditClient, bearer, issue } from '../audit/audit-support.js';

const HUGE_TREE_ID = 't'.repeat(4_000_000);
const REFUSAL_LIMIT = 5;
const WINDOW_SECONDS = 3;
/** The flood stops itself: after this many calls or this long, whichever comes first. */
const FLOOD_CALLS_MAX = 240;
const FLOOD_MS_MAX = 8_000;
const FLOODERS = 8;
/** The other tenant's puts during the flood, p99: generous for two shared CI cores. */
const OTHER_TENANT_P99_MS = 2_000;
/** Growth of this process's RSS (server and clients both live here) during the flood. */
const RSS_GROWTH_MAX_BYTES = 768 * 1024 * 1024;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

describe.each(DIALECTS)('an anonymous audit flood with 4 MB tree ids on %s', (dialect) => {
  let t: TestServer;
  let acmeAdmin: { token: string; subject: string };
  let serverAdmin: { token: string; subject: string };
  const codes = new Map<Code | 'ok', number>();
  let exhausted: ConnectError | undefined;
  const otherLatencies: number[] = [];
  let otherFailures = 0;
  let rssGrowth = 0;

  beforeAll(async () => {
    t = await startTestServer(dialect, {
      STORE_REFUSAL_LIMIT: String(REFUSAL_LIMIT),
      STORE_REFUSAL_WINDOW: String(WINDOW_SECONDS),
    });
    acmeAdmin = await issue(t, 'acme', 'admin');
    // Admins of the bootstrap tenant ("default") are the server's admins.
    serverAdmin = await issue(t, 'default', 'admin');
    const beta = await issue(t, 'beta', 'operator');
    const data = createClient(TreeDataService, t.grpc);
    await data.putEntry(
      { treeId: 'orders', key: 'k', valueJson: '1' },
      { headers: bearer(acmeAdmin.token) },
    );

    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 50);
    const deadline = Date.now() + FLOOD_MS_MAX;
    let sent = 0;
    let flooding = true;
    // Each caller on a connection of its own, as separate clients are: a Node client caps its own
    // session's memory (10 MB) and refuses its later streams. The server keeps every call apart
    // on one connection too (test/h2c-session-memory.test.ts).
    const connection = () =>
      createClient(TreeDataService, createGrpcTransport({ baseUrl: t.server.grpcUrl }));
    const flooder = async () => {
      const data = connection();
      while (sent < FLOOD_CALLS_MAX && Date.now() < deadline) {
        sent += 1;
        try {
          await data.putEntry(
            { treeId: HUGE_TREE_ID, key: 'k', valueJson: '1' },
            { headers: { 'store-active-tenant': 'acme' } },
          );
          codes.set('ok', (codes.get('ok') ?? 0) + 1);
        } catch (error) {
          const refused = ConnectError.from(error);
          codes.set(refused.code, (codes.get(refused.code) ?? 0) + 1);
          if (refused.code === Code.ResourceExhausted) exhausted ??= refused;
        }
      }
    };
    const otherTenant = async () => {
      const data = connection();
      for (let i = 0; flooding; i++) {
        const started = performance.now();
        try {
          await data.putEntry(
            { treeId: 'orders', key: `k${i}`, valueJson: String(i) },
            { headers: bearer(beta.token), timeoutMs: 30_000 },
          );
        } catch {
          otherFailures += 1;
        }
        otherLatencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const other = otherTenant();
    await Promise.all(Array.from({ length: FLOODERS }, flooder));
    flooding = false;
    await other;
    clearInterval(sampler);
    rssGrowth = rssPeak - rssBefore;
  }, 120_000);
  afterAll(async () => t?.dispose());

  it('the server lives, its memory stays bounded and another tenant keeps being answered', async () => {
    expect(await (await fetch(`${t.server.httpUrl}/healthz`)).json()).toEqual({
      status: 'SERVING',
    });
    expect(rssGrowth).toBeLessThan(RSS_GROWTH_MAX_BYTES);
    expect(otherFailures).toBe(0);
    expect(otherLatencies.length).toBeGreaterThan(5);
    expect(percentile(otherLatencies, 99)).toBeLessThan(OTHER_TENANT_P99_MS);
  });

  it('the flooder is refused, then answered ResourceExhausted with the limit and a retry time', () => {
    expect([...codes.keys()].sort()).toEqual(
      [Code.PermissionDenied, Code.ResourceExhausted].sort(),
    );
    expect(codes.get(Code.PermissionDenied)).toBeGreaterThanOrEqual(REFUSAL_LIMIT);
    expect(codes.get(Code.ResourceExhausted)).toBeGreaterThan(0);
    expect(exhausted?.rawMessage).toMatch(
      new RegExp(`at most ${REFUSAL_LIMIT} in ${WINDOW_SECONDS} s .*retry after \\d+ s`),
    );
    const retryAfter = Number(exhausted?.metadata.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  });

  it("acme's trail holds none of the refusals; its admin reads a page of ten and exports", async () => {
    const acme = auditClient(t.grpc, bearer(acmeAdmin.token));
    const page = await acme.list({ pageSize: 10 });
    expect(page.records.length).toBeGreaterThan(0);
    const exported = await acme.all();
    expect(exported.every((r) => r.tenantId === 'acme')).toBe(true);
    expect(exported.filter((r) => r.subject === 'anonymous')).toEqual([]);
    expect(exported.map((r) => r.method)).toContain('PutEntry');
  });

  it('the server-wide view holds the refusals, cut to length, and the summary records', async () => {
    const server = auditClient(t.grpc, bearer(serverAdmin.token));
    const refusals = await server.all({ subject: 'anonymous', method: 'PutEntry' });
    expect(refusals.length).toBeGreaterThanOrEqual(REFUSAL_LIMIT);
    for (const record of refusals) {
      expect(record.tenantId).toBe('');
      expect(record.targetId!.length).toBeLessThanOrEqual(AUDIT_FIELD_MAX.targetId);
      expect(record.targetId).toMatch(/… \[4000000 chars\]$/);
    }
    // A window's summary is written once it ends (the trail looks every second).
    let summaries: Awaited<ReturnType<typeof server.all>> = [];
    for (let i = 0; i < 100 && summaries.length === 0; i++) {
      summaries = await server.all({ method: 'RefusalSummary' });
      if (summaries.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(summaries.length).toBeGreaterThan(0);
    expect(summaries[0]).toMatchObject({
      tenantId: '',
      outcome: 'RESOURCE_EXHAUSTED',
      clientAddress: '127.0.0.1',
    });
    expect(summaries[0]!.detail).toMatch(/^\d+ refusals from 127\.0\.0\.1 in \d+ s/);
    // Every refusal is either a record of its own or counted in a summary.
    await t.server.audit.close();
    summaries = await server.all({ method: 'RefusalSummary' });
    const summarised = summaries.reduce(
      (sum, r) => sum + Number(/\((\d+) over the limit/.exec(r.detail)?.[1]),
      0,
    );
    expect(refusals.length + summarised).toBe(
      (codes.get(Code.PermissionDenied) ?? 0) + (codes.get(Code.ResourceExhausted) ?? 0),
    );
  });

  it('records stored whole before the limits (4 MB fields) still page and export', async () => {
    const store = new AuditStore(t.server.storage);
    const at = Date.now();
    await store.insert(
      Array.from({ length: 12 }, (_, i) => ({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        at: at + i,
        tenant: 'acme',
        // PostgreSQL's index on subject bounds it there; SQLite kept any length.
        subject: 'subject-'.repeat(600),
        service: 'store.data.v1.TreeDataService',
        method: 'PutEntry',
        targetId: HUGE_TREE_ID,
        outcome: 'PERMISSION_DENIED',
        clientAddress: '127.0.0.1',
        detail: 'd'.repeat(1_000_000),
      })),
    );
    const acme = auditClient(t.grpc, bearer(acmeAdmin.token));
    const page = await acme.list({ pageSize: 10 });
    expect(page.records).toHaveLength(10);
    expect(page.records[0]!.targetId).toMatch(/… \[4000000 chars\]$/);
    expect(page.records[0]!.subject).toMatch(/… \[4800 chars\]$/);
    const exported = await acme.all();
    expect(exported.filter((r) => r.targetId?.endsWith('[4000000 chars]'))).toHaveLength(12);
  });
});
