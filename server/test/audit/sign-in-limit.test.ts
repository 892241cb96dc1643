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

  it('after the limit, even a good credential from that address is ResourceExhausted with retry-after; other addresses are not', async () => {
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
    const refused = await whoAmI({ ...from('203.0.113.5'), ...bearer(admin.token) }).then(
      () => undefined,
      (error: unknown) => ConnectError.from(error),
    );
    expect(refused?.code).toBe(Code.ResourceExhausted);
    const retryAfter = Number(refused?.metadata.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused?.rawMessage).toMatch(/too many failed sign-ins.*retry after \d+ s/);

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
});
