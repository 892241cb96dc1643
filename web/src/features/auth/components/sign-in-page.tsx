import { useSyncExternalStore } from 'react';
import { Navigate, useLocation } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';
import { useServices } from '../../../lib/services';
import { safeReturnPath } from '../utils/oidc';
import { useGetAuthSchemesQuery } from '../api/use-get-auth-schemes-query';
import { returnPathOf } from './return-path';
import { SchemeOfferCard } from './scheme-offer-card';

/**
 * Sign-in: offers exactly the schemes the server advertises (DESIGN.md §4), and says why the
 * previous session ended when it was refused.
 */
export function SignInPage() {
  const { session } = useServices();
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const location = useLocation();
  const schemes = useGetAuthSchemesQuery();

  if (snapshot.session) return <Navigate to={safeReturnPath(returnPathOf(location))} replace />;

  return (
    <main className="sign-in" id="main">
      <div className="sign-in__card">
        <h1 className="sign-in__title">Store Admin Console</h1>
        <p className="muted">Sign in to manage backups, operations and schemas.</p>
        {snapshot.notice && (
          <div className="notice notice--warning" role="alert">
            {snapshot.notice}
          </div>
        )}
        {schemes.isPending && <Spinner label="Asking the server how to sign in…" />}
        {schemes.isError && (
          <ErrorBanner
            title="Could not ask the server how to sign in"
            error={schemes.error}
            onRetry={() => void schemes.refetch()}
          />
        )}
        {schemes.data?.length === 0 && (
          <EmptyState title="No sign-in scheme is advertised">
            The server offers no way to sign in. Ask its operator to enable API tokens or single
            sign-on.
          </EmptyState>
        )}
        {schemes.data && schemes.data.length > 0 && (
          <ul className="scheme-list" aria-label="Ways to sign in">
            {schemes.data.map((offer) => (
              <li key={offer.scheme.schemeId}>
                <SchemeOfferCard offer={offer} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </main>
  );
}
