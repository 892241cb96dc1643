import { createHash } from 'node:crypto';
import { createClient } from '@connectrpc/connect';
import { IdentityService } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';

const PRESET = 'bootstrap-preset-token-0123456789abcdef';

describe('the first admin token from STORE_BOOTSTRAP_TOKEN', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { STORE_BOOTSTRAP_TOKEN: PRESET });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('has a random public id, expires in 7 days by default, and signs in', async () => {
    const [info] = await t.server.tokens.list();
    expect(info?.id).toMatch(/^[A-Za-z0-9]{12}$/);
    const hash = createHash('sha256').update(PRESET).digest('hex');
    expect(hash).not.toContain(info!.id.toLowerCase().slice(0, 8));
    expect(info!.expiresAt! - info!.createdAt).toBe(7 * 86_400_000);
    const me = await createClient(IdentityService, t.grpc).whoAmI(
      {},
      { headers: { authorization: `Bearer ${PRESET}` } },
    );
    expect(me.subject).toBe(`token:${info!.id}`);
  });

  it('is in the audit trail, once: a second start on the same data issues none', async () => {
    await t.server.audit.flush();
    const [info] = await t.server.tokens.list();
    const { records } = await t.server.audit.list(info!.tenant, true, { method: 'CreateToken' });
    const once = [
      expect.objectContaining({
        subject: 'server',
        method: 'CreateToken',
        targetId: info!.id,
        outcome: 'OK',
      }),
    ];
    expect(records).toEqual(once);
    // Stop and start on the same storage: the token exists, nothing is issued or recorded.
    await t.server.stop();
    t = await startTestServer('sqlite', { STORE_BOOTSTRAP_TOKEN: PRESET }, t.location);
    await t.server.audit.flush();
    const again = await t.server.audit.list(info!.tenant, true, { method: 'CreateToken' });
    expect(again.records).toEqual(once);
  });
});
