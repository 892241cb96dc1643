import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConnectError } from '@connectrpc/connect';
import { ExplainedError } from '../../../components/ui/error-text';
import { Spinner } from '../../../components/ui/spinner';
import { explainError, type ErrorExplanation } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { useServices } from '../../../lib/services';
import { completeOidcSignIn, type CompletedOidcSignIn } from '../utils/oidc';
import { useVerifyCredentialMutation } from '../api/use-verify-credential-mutation';
import { TenantChoice } from './tenant-choice';

interface PendingTenantChoice {
  tenants: string[];
  returnTo: string;
}

/**
 * The code can be exchanged once; React's StrictMode runs effects twice in development, so the
 * exchange is shared per callback URL instead of started per effect.
 */
const exchanges = new Map<string, Promise<CompletedOidcSignIn>>();

function exchangeOnce(url: string): Promise<CompletedOidcSignIn> {
  let exchange = exchanges.get(url);
  if (!exchange) {
    exchange = completeOidcSignIn(url);
    exchanges.set(url, exchange);
  }
  return exchange;
}

/**
 * Why single sign-on did not finish, with one piece of advice. A server's refusal keeps its own
 * (it knows whether the token or the tenant is wrong); anything the console or the identity
 * provider's client threw can only be started over: the code in this URL is spent, so "try again"
 * or "reload" would fail the same way.
 */
export function explainSignInFailure(error: unknown): ErrorExplanation {
  const explanation = explainError(error);
  if (error instanceof ConnectError) return explanation;
  return { ...explanation, next: 'Sign in again.' };
}

/** /auth/callback: finishes single sign-on, checks the token with WhoAmI, goes where the user was going. */
export function AuthCallbackPage() {
  const navigate = useNavigate();
  const verify = useVerifyCredentialMutation();
  const { mutateAsync } = verify;
  const { session } = useServices();
  const [error, setError] = useState<unknown>(null);
  const [choice, setChoice] = useState<PendingTenantChoice | null>(null);

  useEffect(() => {
    let live = true;
    exchangeOnce(window.location.href)
      .then(async (signIn) => {
        if (!live) return;
        const { accessToken: token, placement } = signIn;
        const who = await mutateAsync({ schemeId: 'oidc', token, placement });
        if (!live) return;
        // Several tenants and none resolved: every call would be refused until one is chosen.
        if (!who.activeTenant && who.tenants.length > 1) {
          setChoice({ tenants: who.tenants.map((g) => g.tenantId), returnTo: signIn.returnTo });
          return;
        }
        // replace: the callback URL (code and state) leaves the history.
        await navigate(signIn.returnTo, { replace: true });
      })
      .catch((failure: unknown) => {
        if (live) setError(failure);
      });
    return () => {
      live = false;
    };
  }, [mutateAsync, navigate]);

  return (
    <main className="sign-in" id="main">
      <div className="sign-in__card">
        <h1 className="sign-in__title">{error === null ? 'Signing in…' : 'Sign-in failed'}</h1>
        {choice ? (
          <TenantChoice
            tenants={choice.tenants}
            onChoose={(tenant) => {
              session.setTenant(tenant);
              void navigate(choice.returnTo, { replace: true });
            }}
          />
        ) : error === null ? (
          <Spinner label="Finishing single sign-on…" />
        ) : (
          <>
            <div className="error-banner" role="alert">
              <ExplainedError explanation={explainSignInFailure(error)} />
            </div>
            <Link to={paths.signIn} replace>
              Back to sign-in
            </Link>
          </>
        )}
      </div>
    </main>
  );
}
