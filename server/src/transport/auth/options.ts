import type { AuthSchemeView } from '../auth-schemes.js';

/** Server options of both bindings (spec 000/001, Options), with the specs' defaults. */
export interface StoreApiOptions {
  requireAuthorization: boolean;
  credentialHeaderName: string;
  credentialScheme: string;
  activeTenantHeaderName: string;
  advertisedAuthSchemes: AuthSchemeView[];
  /** Trusted-network deployments: the tenant anonymous callers act in as admin. */
  trustedTenant?: string | undefined;
  /** How often an open response stream re-checks its caller's credential (ms). */
  streamCredentialCheckMs?: number;
}

/** The specs' defaults: RequireAuthorization true, `authorization`, `Bearer`, `store-active-tenant`, no schemes. */
export function defaultStoreApiOptions(): StoreApiOptions {
  return {
    requireAuthorization: true,
    credentialHeaderName: 'authorization',
    credentialScheme: 'Bearer',
    activeTenantHeaderName: 'store-active-tenant',
    advertisedAuthSchemes: [],
    trustedTenant: undefined,
  };
}
