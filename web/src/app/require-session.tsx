import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '../lib/paths';
import { useSession } from '../lib/services';

/**
 * Signed-in routes. Without a session (never signed in, signed out, or the token was refused) the
 * user goes to sign-in, which brings them back here afterwards (state, not the URL).
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    const { pathname, search, hash } = location;
    return <Navigate to={paths.signIn} replace state={{ from: { pathname, search, hash } }} />;
  }
  return <>{children}</>;
}
