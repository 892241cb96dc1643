import type { ConnectRouter } from '@connectrpc/connect';
import { IdentityService } from '@store/contract';
import { callScopeOf } from './call-scope.js';

/** IdentityService.WhoAmI: the caller as the server resolved the credential. */
export function registerIdentityService(router: ConnectRouter): void {
  router.service(IdentityService, {
    whoAmI(_request, context) {
      const { caller, tenant } = callScopeOf(context);
      return {
        subject: caller.subject,
        displayName: caller.displayName,
        schemeId: caller.schemeId,
        tenants: [...caller.grants.entries()].map(([tenantId, roles]) => ({
          tenantId,
          roles: [...roles],
        })),
        activeTenant: tenant,
      };
    },
  });
}
