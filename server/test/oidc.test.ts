import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { IdentityService, TreeDataService } from '@store/contract';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer, type TestIssuer } from './support/oidc-issuer.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { DIALECTS } from './support/test-storage.js';

describe.each(DIALECTS)('OIDC access tokens against a real OpenID provider on %s', (dialect) => {
  let idp: TestIssuer;
  let t: TestServer;
  beforeAll(async () => {
    idp = await startTestIssuer({ tenants: { acme: ['operator'] } });
    t = await startTestServer(dialect, {
      STORE_OIDC_ISSUER: idp.issuer,
      STORE_OIDC_CLIENT_ID: 'store-console',
      STORE_OIDC_AUDIENCE: idp.audience,
    });
  });
  afterAll(async () => {
    await t?.dispose();
    await idp?.close();
  });

  const whoAmI = (token: string, headers: Record<string, string> = {}) =>
    createClient(IdentityService, t.grpc).whoAmI(
      {},
      { headers: { authorization: `Bearer ${token}`, ...headers } },
    );
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (e: unknown) => Code[ConnectError.from(e).code],
    );

  async function mint(
    claims: Record<string, unknown>,
    options: {
      key?: JWK;
      alg?: string;
      expiresIn?: string | number;
      issuer?: string;
      audience?: string;
    } = {},
  ) {
    const key = await importJWK(options.key ?? idp.signingKey, options.alg ?? 'RS256');
    return new SignJWT({ store_tenants: { acme: ['admin'] }, ...claims })
      .setProtectedHeader({
        alg: options.alg ?? 'RS256',
        kid: (options.key ?? idp.signingKey).kid ?? 'test-key-1',
      })
      .setSubject('user-1')
      .setIssuer(options.issuer ?? idp.issuer)
      .setAudience(options.audience ?? idp.audience)
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '5m')
      .sign(key);
  }

  it('advertises the oidc scheme with public parameters only', async () => {
    const { createSchemaClient } = await import('@store/contract');
    const schemes = await createSchemaClient(t.grpc).getAuthScheme();
    const oidc = schemes.find((s) => s.schemeId === 'oidc');
    expect(oidc?.parameters).toEqual({
      issuer: idp.issuer,
      client_id: 'store-console',
      scope: 'openid profile',
    });
    expect(JSON.stringify(schemes)).not.toMatch(/secret/i);
  });

  it('accepts an access token the provider issued, with tenants from the claims', async () => {
    const token = await idp.clientCredentialsToken();
    const me = await whoAmI(token);
    expect(me.schemeId).toBe('oidc');
    expect(me.tenants).toEqual([
      expect.objectContaining({ tenantId: 'acme', roles: ['operator'] }),
    ]);
    expect(me.activeTenant).toBe('acme');
  });

  it('refuses expired, wrong-audience, wrong-issuer, alg none and foreign-key tokens', async () => {
    const expired = await mint({}, { expiresIn: Math.floor(Date.now() / 1000) - 300 });
    const wrongAudience = await mint({}, { audience: 'someone-else' });
    const wrongIssuer = await mint({}, { issuer: 'http://127.0.0.1:1' });
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(
      JSON.stringify({
        sub: 'x',
        iss: idp.issuer,
        aud: idp.audience,
        exp: Math.floor(Date.now() / 1000) + 300,
        store_tenants: { acme: ['admin'] },
      }),
    ).toString('base64url');
    const algNone = `${header}.${body}.`;
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const foreign = await mint(
      {},
      { key: { ...(await exportJWK(privateKey)), kid: 'test-key-1' } },
    );
    const hs256 = await new SignJWT({ store_tenants: { acme: ['admin'] } })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a-shared-secret-nobody-should-trust'));

    for (const [label, token] of Object.entries({
      expired,
      wrongAudience,
      wrongIssuer,
      algNone,
      foreign,
      hs256,
    })) {
      expect(await codeOf(whoAmI(token)), label).toBe('Unauthenticated');
    }
    // A token the provider's own key signed, with everything right, passes (the control case).
    expect(await codeOf(whoAmI(await mint({})))).toBe('ok');
  });

  it('tolerates a token expired within the clock skew allowance (30 s), not beyond it', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await codeOf(whoAmI(await mint({}, { expiresIn: now - 10 })))).toBe('ok');
    expect(await codeOf(whoAmI(await mint({}, { expiresIn: now - 60 })))).toBe('Unauthenticated');
  });

  it('WhoAmI answers a caller of two tenants without the active-tenant header; tenant calls need it', async () => {
    const token = await mint({ store_tenants: { acme: ['operator'], beta: ['viewer'] } });
    const me = await whoAmI(token);
    expect(me.activeTenant).toBe('');
    expect(me.tenants).toEqual([
      expect.objectContaining({ tenantId: 'acme', roles: ['operator'] }),
      expect.objectContaining({ tenantId: 'beta', roles: ['viewer'] }),
    ]);
    expect((await whoAmI(token, { 'store-active-tenant': 'beta' })).activeTenant).toBe('beta');
    expect(await codeOf(whoAmI(token, { 'store-active-tenant': 'gamma' }))).toBe(
      'PermissionDenied',
    );
    // A call that acts in a tenant still needs the header when the caller has several.
    const data = createClient(TreeDataService, t.grpc);
    const authorization = `Bearer ${token}`;
    expect(await codeOf(data.listTrees({}, { headers: { authorization } }))).toBe(
      'InvalidArgument',
    );
    expect(
      await codeOf(
        data.listTrees({}, { headers: { authorization, 'store-active-tenant': 'acme' } }),
      ),
    ).toBe('ok');
  });
});
