import { Code, ConnectError } from '@connectrpc/connect';
import type { Principal } from '../../engines/identity/principal.js';
import type { CallScope } from '../call-scope.js';

const TENANT = /^[A-Za-z0-9._-]{1,128}$/;

/** Reads and checks the active-tenant header; undefined when absent. */
export function requestedTenantOf(headers: Headers, headerName: string): string | undefined {
  const raw = headers.get(headerName);
  if (raw === null) return undefined;
  if (!TENANT.test(raw) || raw === '.' || raw === '..') {
    throw new ConnectError(`${headerName}: not a tenant id`, Code.InvalidArgument);
  }
  return raw;
}

/**
 * The access gate (DESIGN.md §4, step 5): resolves the tenant the call acts in. An anonymous
 * caller is refused while auth-backed control is active, unless a trusted tenant is configured.
 */
export function resolveCallScope(
  principal: Principal,
  requested: string | undefined,
  headerName: string,
  trustedTenant: string | undefined,
): CallScope {
  if (principal.anonymous) {
    if (trustedTenant === undefined) {
      throw new ConnectError(
        'authentication required: auth-backed control is active; sign in with an advertised scheme',
        Code.Unauthenticated,
      );
    }
    if (requested !== undefined && requested !== trustedTenant) {
      throw new ConnectError(
        `tenant ${requested} is not granted to anonymous callers`,
        Code.PermissionDenied,
      );
    }
    return {
      caller: { ...principal, grants: new Map([[trustedTenant, ['admin']]]) },
      tenant: trustedTenant,
    };
  }
  if (requested !== undefined) {
    if (!principal.grants.has(requested)) {
      throw new ConnectError(
        `tenant ${requested} is not granted to this caller`,
        Code.PermissionDenied,
      );
    }
    return { caller: principal, tenant: requested };
  }
  const tenants = [...principal.grants.keys()];
  if (tenants.length === 1) return { caller: principal, tenant: tenants[0] as string };
  throw new ConnectError(
    tenants.length === 0
      ? 'this caller is granted no tenant'
      : `${headerName}: required, the caller is granted ${tenants.length} tenants`,
    tenants.length === 0 ? Code.PermissionDenied : Code.InvalidArgument,
  );
}
