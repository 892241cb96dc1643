import { Code, ConnectError } from '@connectrpc/connect';
import type { Principal } from '../../engines/identity/principal.js';
import type { CallScope, CallerScope } from '../call-scope.js';

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
  const { caller, tenant } = resolveCaller(principal, requested, trustedTenant);
  if (tenant !== undefined) return { caller, tenant };
  const tenants = caller.grants.size;
  throw new ConnectError(
    tenants === 0
      ? 'this caller is granted no tenant'
      : `${headerName}: required, the caller is granted ${tenants} tenants`,
    tenants === 0 ? Code.PermissionDenied : Code.InvalidArgument,
  );
}

/**
 * The gate for calls that need no tenant (WhoAmI): the same checks, but when no header is sent
 * and the caller has not exactly one tenant, the tenant stays undefined instead of an error.
 */
export function resolveCaller(
  principal: Principal,
  requested: string | undefined,
  trustedTenant: string | undefined,
): CallerScope {
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
  return { caller: principal, tenant: tenants.length === 1 ? tenants[0] : undefined };
}
