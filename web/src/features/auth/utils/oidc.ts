import type { UserManager } from 'oidc-client-ts';
import { paths } from '../../../lib/paths';
import type { CredentialPlacement } from '../../../lib/session/session-store';
import { readSessionJson, removeSessionItem, writeSessionJson } from '../../../lib/storage';
import type { OidcSettings } from '../api/auth-schemes';

/** What the callback page needs to finish a sign-in the sign-in page started. */
interface PendingOidcSignIn {
  settings: OidcSettings;
  placement: CredentialPlacement;
}

interface SignInState {
  returnTo: string;
}

const PENDING_KEY = 'store.oidc.pending';

/**
 * oidc-client-ts, loaded only when someone signs in with OIDC (it is a third of the bundle
 * otherwise). Both its stores are sessionStorage: by default its state store is localStorage,
 * and nothing of a sign-in may outlive the tab (DESIGN.md §6). Silent renew and session
 * monitoring are off: they need iframes to the issuer, which the console's CSP does not allow;
 * an expired token is refused by the server and the console asks to sign in again.
 */
async function createUserManager(settings: OidcSettings): Promise<UserManager> {
  const oidc = await import('oidc-client-ts');
  const store = globalThis.sessionStorage;
  return new oidc.UserManager({
    authority: settings.issuer,
    client_id: settings.clientId,
    scope: settings.scope,
    redirect_uri: `${window.location.origin}${paths.authCallback}`,
    response_type: 'code',
    userStore: new oidc.WebStorageStateStore({ store }),
    stateStore: new oidc.WebStorageStateStore({ store }),
    automaticSilentRenew: false,
    monitorSession: false,
  });
}

/** Leaves for the issuer (authorization code + PKCE); returns to /auth/callback. */
export async function startOidcSignIn(
  settings: OidcSettings,
  placement: CredentialPlacement,
  returnTo: string,
): Promise<void> {
  writeSessionJson(PENDING_KEY, { settings, placement } satisfies PendingOidcSignIn);
  const manager = await createUserManager(settings);
  // returnTo rides in the stored state, not in the URL.
  await manager.signinRedirect({ state: { returnTo } satisfies SignInState });
}

export interface CompletedOidcSignIn {
  accessToken: string;
  placement: CredentialPlacement;
  returnTo: string;
}

/** Exchanges the code on /auth/callback for tokens and says where the user was going. */
export async function completeOidcSignIn(url: string): Promise<CompletedOidcSignIn> {
  const pending = readSessionJson<PendingOidcSignIn>(PENDING_KEY);
  if (!pending) throw new Error('No single sign-on was started in this tab.');
  const manager = await createUserManager(pending.settings);
  const user = await manager.signinRedirectCallback(url);
  removeSessionItem(PENDING_KEY);
  const state = user.state as Partial<SignInState> | undefined;
  return {
    accessToken: user.access_token,
    placement: pending.placement,
    returnTo: safeReturnPath(state?.returnTo),
  };
}

/** Only a path of this console: never another origin ("//evil", "https://…"). */
export function safeReturnPath(path: unknown): string {
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//')
    ? path
    : paths.dashboard;
}
