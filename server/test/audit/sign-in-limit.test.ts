import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { IdentityService } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { auditClient, bearer, codeOf, issue } from './audit-support.js';

// The limit is per process memory; the storage dialect plays no part, so SQLite alone.
describe('failed sign-ins per client address', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', {
      STORE_SIGN_IN_FAILURE_LIMIT: '3',
      STORE_SIGN_IN_FAILURE_WINDOW: '60',
    });
  });
  afterAll(async () => t?.dispose());

  it('after the limit, a refused credential from that address is ResourceExhausted with retry-after; a good one still signs in at once', async () => {
    const admin = await issue(t, 'default', 'admin');
    const identity = createClient(IdentityService, t.grpc);
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const whoAmI = (headers: Record<string, string>) => identity.whoAmI({}, { headers });

    // Anonymous calls present no credential: they are not failed sign-ins.
    for (let i = 0; i < 5; i++) {
      expect(await codeOf(whoAmI(from('203.0.113.5')))).toBe(Code.PermissionDenied);
    }
    expect(await codeOf(whoAmI({ ...from('203.0.113.5'), ...bearer(admin.token) }))).toBe('ok');

    for (let i = 0; i < 3; i++) {
      expect(await codeOf(whoAmI({ ...from('203.0.113.5'), ...bearer('st_bad_token') }))).toBe(
        Code.Unauthenticated,
      );
    }
    const refused = await whoAmI({ ...from('203.0.113.5'), ...bearer('st_bad_token') }).then(
      () => undefined,
      (error: unknown) => ConnectError.from(error),
    );
    expect(refused?.code).toBe(Code.ResourceExhausted);
    const retryAfter = Number(refused?.metadata.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused?.rawMessage).toMatch(/too many failed sign-ins.*retry after \d+ s/);
    // Others' failures from the same address (a shared NAT) never lock a good credential out.
    expect(await codeOf(whoAmI({ ...from('203.0.113.5'), ...bearer(admin.token) }))).toBe('ok');

    expect(await codeOf(whoAmI({ ...from('203.0.113.6'), ...bearer(admin.token) }))).toBe('ok');
    // The refused sign-ins are in the audit trail with the address they came from.
    await t.server.audit.flush();
    const failures = await auditClient(t.grpc, bearer(admin.token)).all({
      outcome: 'UNAUTHENTICATED',
    });
    expect(
      failures.filter((r) => r.clientAddress === '203.0.113.5' && r.subject === ''),
    ).toHaveLength(3);
  });

  it('bad secrets for one token id are limited from any address (per credential prefix); the real token still signs in', async () => {
    const admin = await issue(t, 'default', 'admin');
    const identity = createClient(IdentityService, t.grpc);
    // The real token's id with a wrong secret: what guessing that token's secret looks like.
    const guess = `${admin.token.slice(0, 'st_'.length + 12)}_${'x'.repeat(43)}`;
    const whoAmI = (address: string, token: string) =>
      identity.whoAmI({}, { headers: { 'x-forwarded-for': address, ...bearer(token) } });
    for (let i = 0; i < 3; i++) {
      expect(await codeOf(whoAmI(`198.51.100.${i + 1}`, guess))).toBe(Code.Unauthenticated);
    }
    const refused = await whoAmI('198.51.100.9', guess).then(
      () => undefined,
      (error: unknown) => ConnectError.from(error),
    );
    expect(refused?.code).toBe(Code.ResourceExhausted);
    expect(refused?.rawMessage).toMatch(
      /too many failed sign-ins with this token; retry after \d+ s/,
    );
    expect(Number(refused?.metadata.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await codeOf(whoAmI('198.51.100.9', admin.token))).toBe('ok');
    // Another token's id is not touched by those failures.
    const other = await issue(t, 'default', 'viewer');
    const otherGuess = `${other.token.slice(0, 'st_'.length + 12)}_${'y'.repeat(43)}`;
    expect(await codeOf(whoAmI('198.51.100.20', otherGuess))).toBe(Code.Unauthenticated);
  });
});

describe('failed sign-ins with the shipped limits', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => t?.dispose());

  it('100 bad tokens from one address, then a valid one from the same address signs in at once', async () => {
    const admin = await issue(t, 'default', 'admin');
    const identity = createClient(IdentityService, t.grpc);
    const headers = (token: string) => ({ 'x-forwarded-for': '192.0.2.77', ...bearer(token) });
    const codes = new Set<string | Code>();
    for (let i = 0; i < 100; i++) {
      codes.add(await codeOf(identity.whoAmI({}, { headers: headers(`st_bad_${i}`) })));
    }
    // The first 20 (STORE_SIGN_IN_FAILURE_LIMIT) are refused as bad, the rest told to wait.
    expect([...codes].sort()).toEqual([Code.ResourceExhausted, Code.Unauthenticated].sort());
    const started = Date.now();
    expect(await codeOf(identity.whoAmI({}, { headers: headers(admin.token) }))).toBe('ok');
    // "At once": not after the window (60 s); the call itself is all it took.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
