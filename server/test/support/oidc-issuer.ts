import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';

/** The resource indicator (an absolute URI) whose access tokens carry the `store-api` audience. */
const RESOURCE = 'https://store.example/api';

export interface TestIssuer {
  issuer: string;
  audience: string;
  /** The provider's private signing key, to mint tokens the provider itself would not. */
  signingKey: JWK & { kid: string };
  /** A real access token (JWT) from the provider's token endpoint (client credentials). */
  clientCredentialsToken(): Promise<string>;
  close(): Promise<void>;
}

export interface TestIssuerOptions {
  /** Tenant grants put into every access token's `store_tenants` claim. */
  tenants?: Record<string, string[]>;
  /** Redirect URIs of the public `console` client (authorization code + PKCE). */
  redirectUris?: string[];
  accessTokenTtlSeconds?: number;
}

/**
 * A real OpenID provider (the `oidc-provider` package) on 127.0.0.1 for tests: discovery, JWKS,
 * client credentials for machine tokens and authorization code + PKCE (with its development
 * login screen) for the console. Access tokens are JWTs for the `store-api` audience.
 */
export async function startTestIssuer(options: TestIssuerOptions = {}): Promise<TestIssuer> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = {
    ...(await exportJWK(privateKey)),
    kid: 'test-key-1',
    alg: 'RS256',
    use: 'sig',
  };
  const server: Server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const audience = 'store-api';
  const tenants = options.tenants ?? { default: ['admin'] };

  const provider = new Provider(issuer, {
    jwks: { keys: [signingKey] },
    clients: [
      {
        client_id: 'store-machine',
        client_secret: 'machine-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: 'store-console',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: options.redirectUris ?? ['http://127.0.0.1/auth/callback'],
      },
    ],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'openid profile',
          audience,
          accessTokenFormat: 'jwt',
          accessTokenTTL: options.accessTokenTtlSeconds ?? 300,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    extraTokenClaims: () => ({ store_tenants: tenants, name: 'Test User' }),
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, name: 'Test User' }),
    }),
    scopes: ['openid', 'profile'],
  });
  provider.proxy = false;
  server.on('request', provider.callback());

  return {
    issuer,
    audience,
    signingKey,
    async clientCredentialsToken() {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from('store-machine:machine-secret').toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          resource: RESOURCE,
          scope: 'openid',
        }),
      });
      const body = (await response.json()) as { access_token?: string; error_description?: string };
      if (!body.access_token)
        throw new Error(`token endpoint: ${body.error_description ?? response.status}`);
      return body.access_token;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
