import {
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { CredentialError, parseRole, type Principal, type Role } from './principal.js';

export interface OidcSettings {
  issuer: string;
  audience: string;
  /**
   * The console's client id. An ID token is issued to it (its `aud`), so a token whose only
   * proof of being an access token is that audience is refused unless its `typ` is at+jwt.
   */
  clientId?: string;
  /** Claim holding tenant grants: {"acme": ["admin"]} or ["acme:admin", …]. */
  tenantsClaim: string;
  /** Claim with roles for every tenant listed as plain names in the tenants claim. */
  rolesClaim: string;
  /** Tolerated clock difference, seconds. */
  clockToleranceSeconds?: number;
  /** Signing algorithms accepted: never "none", never HMAC with a public key. */
  algorithms?: string[];
  /**
   * Least time between two JWKS fetches that a token with an unknown key id may trigger (key
   * rotation); bounds how hard forged key ids can make us hit the issuer. Default 30 s.
   */
  jwksCooldownMs?: number;
  /** Fetch for discovery (tests inject one); defaults to global fetch. */
  fetchDiscovery?: (url: string) => Promise<{ jwks_uri?: unknown; issuer?: unknown }>;
}

const DEFAULT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'EdDSA',
];

/**
 * Verifies OIDC access tokens (JWT) with jose against the issuer's JWKS: issuer, audience,
 * algorithm allowlist, expiry with clock tolerance; keys are fetched from discovery and
 * re-fetched when a token names a key id the cached set lacks (key rotation).
 */
export class OidcVerifier {
  private keys: Promise<JWTVerifyGetKey> | undefined;

  constructor(private readonly settings: OidcSettings) {}

  private async keySet(): Promise<JWTVerifyGetKey> {
    this.keys ??= (async () => {
      const url = `${this.settings.issuer}/.well-known/openid-configuration`;
      const discovery = this.settings.fetchDiscovery
        ? await this.settings.fetchDiscovery(url)
        : ((await (await fetch(url)).json()) as { jwks_uri?: unknown; issuer?: unknown });
      if (typeof discovery.jwks_uri !== 'string') {
        throw new Error(`OIDC discovery at ${url} has no jwks_uri`);
      }
      // OpenID Connect Discovery §4.3: the document's issuer must be the one configured, or a
      // document served elsewhere could substitute its own keys.
      if (!sameIssuer(discovery.issuer, this.settings.issuer)) {
        throw new Error(
          `OIDC discovery at ${url} names issuer ${JSON.stringify(discovery.issuer)}, not ${this.settings.issuer}`,
        );
      }
      return createRemoteJWKSet(new URL(discovery.jwks_uri), {
        cooldownDuration: this.settings.jwksCooldownMs ?? 30_000,
      });
    })();
    try {
      return await this.keys;
    } catch (error) {
      this.keys = undefined; // try discovery again on the next call
      throw error;
    }
  }

  /** The principal a valid token names, or CredentialError with the reason. */
  async verify(token: string): Promise<Principal> {
    let payload: JWTPayload;
    let typ: string | undefined;
    try {
      const result = await jwtVerify(token, await this.keySet(), {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: this.settings.algorithms ?? DEFAULT_ALGORITHMS,
        clockTolerance: this.settings.clockToleranceSeconds ?? 30,
        requiredClaims: ['exp', 'sub'],
      });
      payload = result.payload;
      typ = result.protectedHeader.typ;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw new CredentialError('expired', 'access token has expired');
      }
      if (error instanceof joseErrors.JOSEError) {
        throw new CredentialError('invalid', `access token refused: ${error.code}`);
      }
      throw new CredentialError('invalid', 'access token could not be verified');
    }
    if (!isAccessTokenType(typ) && !this.hasApiAudience()) {
      // The audience is the console's client id, which every ID token carries too: without
      // `typ: at+jwt` (RFC 9068) nothing tells an access token from an ID token.
      throw new CredentialError(
        'invalid',
        'access token refused: not typed at+jwt and its audience is the client id (an ID token?)',
      );
    }
    return {
      subject: `oidc:${String(payload.sub)}`,
      displayName:
        stringClaim(payload, 'name') ??
        stringClaim(payload, 'preferred_username') ??
        String(payload.sub),
      schemeId: 'oidc',
      anonymous: false,
      grants: grantsFrom(payload, this.settings),
    };
  }

  private hasApiAudience(): boolean {
    return (
      this.settings.clientId === undefined || this.settings.audience !== this.settings.clientId
    );
  }
}

/** RFC 9068 §2.1: `at+jwt`, or the full media type. */
function isAccessTokenType(typ: string | undefined): boolean {
  const value = typ?.toLowerCase();
  return value === 'at+jwt' || value === 'application/at+jwt';
}

function sameIssuer(found: unknown, configured: string): boolean {
  return typeof found === 'string' && found.replace(/\/$/, '') === configured.replace(/\/$/, '');
}

function stringClaim(payload: JWTPayload, name: string): string | undefined {
  const value = payload[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Tenant grants from the configured claims; unknown role names are ignored, not trusted. */
export function grantsFrom(
  payload: JWTPayload,
  settings: Pick<OidcSettings, 'tenantsClaim' | 'rolesClaim'>,
): Map<string, Role[]> {
  const grants = new Map<string, Role[]>();
  const add = (tenant: string, roleName: string) => {
    const role = parseRole(roleName);
    if (!role || !/^[A-Za-z0-9._-]{1,128}$/.test(tenant)) return;
    const roles = grants.get(tenant) ?? [];
    if (!roles.includes(role)) roles.push(role);
    grants.set(tenant, roles);
  };
  const tenants = payload[settings.tenantsClaim];
  const sharedRoles = payload[settings.rolesClaim];
  const roleList = Array.isArray(sharedRoles)
    ? sharedRoles.filter((r) => typeof r === 'string')
    : [];
  if (Array.isArray(tenants)) {
    for (const item of tenants) {
      if (typeof item !== 'string') continue;
      // "tenant" or "tenant:role"; anything else ("acme:admin:extra") is malformed, not acme/admin.
      const parts = item.split(':');
      if (parts.length > 2) continue;
      const [tenant, role] = parts as [string, string | undefined];
      if (role !== undefined) add(tenant, role);
      else for (const shared of roleList) add(tenant, shared);
    }
  } else if (tenants && typeof tenants === 'object') {
    for (const [tenant, roles] of Object.entries(tenants as Record<string, unknown>)) {
      if (Array.isArray(roles))
        for (const role of roles) if (typeof role === 'string') add(tenant, role);
    }
  }
  return grants;
}
