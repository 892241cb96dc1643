import type { ConnectRouter } from '@connectrpc/connect';
import { IdentityService } from '@store/contract';
import { callerScopeOf } from './call-scope.js';

/**
 * IdentityService.WhoAmI: the caller as the server resolved the credential. A caller of several
 * tenants may ask without the active-tenant header; active_tenant is then empty.
 */
export function registerIdentityService(router: ConnectRouter): void {
  router.service(IdentityService, {
    whoAmI(_request, context) {
      const { caller, tenant } = callerScopeOf(context);
      return {
        subject: caller.subject,
        displayName: caller.displayName,
        schemeId: caller.schemeId,
        tenants: [...caller.grants.entries()].map(([tenantId, roles]) => ({
          tenantId,
          roles: [...roles],
        })),
        activeTenant: tenant ?? '',
      };
    },
  });
}
