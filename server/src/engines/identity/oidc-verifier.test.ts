import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { CredentialError } from './principal.js';
import { OidcVerifier, grantsFrom } from './oidc-verifier.js';

/** An issuer's JWKS endpoint whose key set the test can rotate. */
async function jwksServer(): Promise<{ url: string; keys: JWK[]; server: Server }> {
  const keys: JWK[] = [];
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`, keys, server };
}

async function signingKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256' } };
}

const ISSUER = 'https://issuer.test';
const sign = (key: Parameters<SignJWT['sign']>[0], kid: string) =>
  new SignJWT({ store_tenants: { acme: ['viewer'] } })
    .setProtectedHeader({ alg: 'RS256', kid })
    .setSubject('u1')
    .setIssuer(ISSUER)
    .setAudience('store-api')
    .setExpirationTime('5m')
    .sign(key);

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof CredentialError ? error.reason : 'other';
  }
}

describe('OIDC key rotation', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('accepts tokens of a key the issuer adds later, once the fetch cooldown has passed', async () => {
    const jwks = await jwksServer();
    server = jwks.server;
    const first = await signingKey('k1');
    const second = await signingKey('k2');
    jwks.keys.push(first.publicJwk);
    const verifier = new OidcVerifier({
      issuer: ISSUER,
      audience: 'store-api',
      tenantsClaim: 'store_tenants',
      rolesClaim: 'roles',
      jwksCooldownMs: 200,
      fetchDiscovery: async () => ({ issuer: ISSUER, jwks_uri: jwks.url }),
    });
    expect(await reason(verifier.verify(await sign(first.privateKey, 'k1')))).toBe('ok');
    // A token naming a key id the issuer does not publish is refused.
    expect(await reason(verifier.verify(await sign(second.privateKey, 'k2')))).toBe('invalid');

    // The issuer rotates: k2 is published. After the cooldown, the verifier fetches again.
    jwks.keys.push(second.publicJwk);
    await new Promise((r) => setTimeout(r, 250));
    const principal = await verifier.verify(await sign(second.privateKey, 'k2'));
    expect(principal).toMatchObject({ subject: 'oidc:u1', schemeId: 'oidc' });
    expect(principal.grants.get('acme')).toEqual(['viewer']);
  });
});

describe('OIDC token kind, discovery issuer and grant claims', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  async function verifierFor(options: { audience: string; discoveredIssuer?: string }) {
    const jwks = await jwksServer();
    server = jwks.server;
    const key = await signingKey('k1');
    jwks.keys.push(key.publicJwk);
    const verifier = new OidcVerifier({
      issuer: ISSUER,
      audience: options.audience,
      clientId: 'store-console',
      tenantsClaim: 'store_tenants',
      rolesClaim: 'roles',
      fetchDiscovery: async () => ({
        issuer: options.discoveredIssuer ?? ISSUER,
        jwks_uri: jwks.url,
      }),
    });
    const mint = (audience: string, typ?: string) =>
      new SignJWT({ store_tenants: { acme: ['viewer'] } })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1', ...(typ && { typ }) })
        .setSubject('u1')
        .setIssuer(ISSUER)
        .setAudience(audience)
        .setExpirationTime('5m')
        .sign(key.privateKey);
    return { verifier, mint };
  }

  it('when the audience is the client id, an ID token (not typed at+jwt) is refused and an at+jwt access token accepted', async () => {
    const { verifier, mint } = await verifierFor({ audience: 'store-console' });
    expect(await reason(verifier.verify(await mint('store-console', 'JWT')))).toBe('invalid');
    expect(await reason(verifier.verify(await mint('store-console')))).toBe('invalid');
    expect(await reason(verifier.verify(await mint('store-console', 'at+jwt')))).toBe('ok');
    expect(await reason(verifier.verify(await mint('store-console', 'application/at+jwt')))).toBe(
      'ok',
    );
  });

  it('with an API audience of its own, a token for it is accepted and one for the client id refused', async () => {
    const { verifier, mint } = await verifierFor({ audience: 'store-api' });
    expect(await reason(verifier.verify(await mint('store-api', 'JWT')))).toBe('ok');
    expect(await reason(verifier.verify(await mint('store-console', 'JWT')))).toBe('invalid');
  });

  it('a discovery document naming another issuer is not trusted', async () => {
    const { verifier, mint } = await verifierFor({
      audience: 'store-api',
      discoveredIssuer: 'https://evil.test',
    });
    expect(await reason(verifier.verify(await mint('store-api', 'at+jwt')))).toBe('invalid');
  });

  it('reads "tenant:role" grants and ignores malformed ones such as "acme:admin:extra"', () => {
    const grants = grantsFrom(
      { store_tenants: ['acme:admin:extra', 'beta:operator', 'gamma', ':admin', 'delta:'] },
      { tenantsClaim: 'store_tenants', rolesClaim: 'roles' },
    );
    expect([...grants]).toEqual([['beta', ['operator']]]);
  });
});
