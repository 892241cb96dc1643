import { useState } from 'react';
import { useLocation } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ErrorBanner } from '../../../components/ui/error-banner';
import type { SchemeOffer } from '../api/auth-schemes';
import { safeReturnPath, startOidcSignIn } from '../utils/oidc';
import { returnPathOf } from './return-path';

type OidcOffer = Extract<SchemeOffer, { kind: 'oidc' }>;

/** Single sign-on: leaves for the issuer (authorization code + PKCE) and comes back signed in. */
export function OidcSignIn({ offer }: { offer: OidcOffer }) {
  const location = useLocation();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const start = () => {
    setBusy(true);
    setError(null);
    const returnTo = safeReturnPath(returnPathOf(location));
    startOidcSignIn(offer.settings, offer.placement, returnTo).catch((failure: unknown) => {
      setBusy(false);
      setError(failure);
    });
  };

  return (
    <div className="stack">
      <p className="muted">You sign in at {issuerHost(offer.settings.issuer)}.</p>
      <Button variant="primary" onClick={start} busy={busy}>
        Sign in with {offer.scheme.displayName || 'single sign-on'}
      </Button>
      {error !== null && <ErrorBanner title="Single sign-on could not start" error={error} />}
    </div>
  );
}

function issuerHost(issuer: string): string {
  try {
    return new URL(issuer).host;
  } catch {
    return issuer;
  }
}
