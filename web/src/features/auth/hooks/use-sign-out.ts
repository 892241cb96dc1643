import { useCallback } from 'react';
import { useServices } from '../../../lib/services';

/**
 * Signs out: the session store clears sessionStorage (token, oidc-client-ts's user, the tray)
 * and the query cache; the route guard then shows the sign-in page.
 */
export function useSignOut(): () => void {
  const { session } = useServices();
  return useCallback(() => session.end(null), [session]);
}
