import { useActiveTenant } from '../services';
import { useWhoAmIQuery } from './use-who-am-i-query';

import { needsRole, ROLE_ORDER, type Role } from './role-reason';

export { ROLE_ORDER, type Role } from './role-reason';

export interface Roles {
  /** The roles granted in the active tenant, as WhoAmI lists them. */
  roles: readonly string[];
  /** Whether the caller holds `role` or a higher one in the active tenant. */
  atLeast: (role: Role) => boolean;
  /** The disabled reason for a control needing `role`: "Needs the operator role (you are …)." */
  needs: (role: Role) => string;
  isLoading: boolean;
}

/** The caller's roles in the active tenant, from WhoAmI. */
export function useRoles(): Roles {
  const tenant = useActiveTenant();
  const { data, isLoading } = useWhoAmIQuery();
  const roles = data?.tenants.find((grant) => grant.tenantId === tenant)?.roles ?? [];
  const rank = Math.max(-1, ...roles.map((r) => ROLE_ORDER.indexOf(r as Role)));
  return {
    roles,
    atLeast: (role) => rank >= ROLE_ORDER.indexOf(role),
    needs: (role) => needsRole(role, roles, tenant),
    isLoading,
  };
}
