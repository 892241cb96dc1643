import { readSessionJson, removeSessionItem, writeSessionJson } from '../storage';

/** How the console presents its credential: the advertised bearer scheme's {header, prefix}. */
export interface CredentialPlacement {
  header: string;
  prefix: string;
}

/** A signed-in session. The token is held in memory and mirrored to sessionStorage only. */
export interface Session {
  /** The advertised scheme the credential came through (bearer, oidc). */
  schemeId: string;
  token: string;
  placement: CredentialPlacement;
  /** The tenant calls act in (store-active-tenant); undefined lets the server pick the only one. */
  tenant?: string | undefined;
}

export interface SessionSnapshot {
  session: Session | null;
  /** Why the last session ended, shown once on the sign-in page. */
  notice: string | null;
}

export const SESSION_STORAGE_KEY = 'store.session';

/** DESIGN.md §4 defaults (STORE_CREDENTIAL_HEADER, STORE_CREDENTIAL_SCHEME). */
export const DEFAULT_PLACEMENT: CredentialPlacement = { header: 'authorization', prefix: 'Bearer' };

export const SESSION_ENDED_NOTICE =
  'Your session ended: the token was refused (expired or revoked). Sign in again.';

/** The header value for a credential: "<prefix> <token>", or the bare token without a prefix. */
export function credentialValue(session: Pick<Session, 'token' | 'placement'>): string {
  const prefix = session.placement.prefix.trim();
  return prefix ? `${prefix} ${session.token}` : session.token;
}

/**
 * The one place the session lives. React reads it through useSyncExternalStore and the transport
 * interceptor reads it on every call, so both always agree on the token and the tenant.
 */
export class SessionStore {
  private snapshot: SessionSnapshot;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly onEnd: () => void = () => {}) {
    const stored = readSessionJson<Session>(SESSION_STORAGE_KEY);
    this.snapshot = { session: isSession(stored) ? stored : null, notice: null };
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): SessionSnapshot => this.snapshot;

  get session(): Session | null {
    return this.snapshot.session;
  }

  /** Starts a session after the server accepted the credential (WhoAmI answered). */
  signIn(session: Session): void {
    writeSessionJson(SESSION_STORAGE_KEY, session);
    this.set({ session, notice: null });
  }

  /** Switches the active tenant; callers reset the query cache so no other tenant's data shows. */
  setTenant(tenant: string): void {
    const current = this.snapshot.session;
    if (!current || current.tenant === tenant) return;
    const session = { ...current, tenant };
    writeSessionJson(SESSION_STORAGE_KEY, session);
    this.set({ ...this.snapshot, session });
  }

  /** Ends the session, leaving a notice for the sign-in page (null for a plain sign-out). */
  end(notice: string | null = null): void {
    removeSessionItem(SESSION_STORAGE_KEY);
    this.onEnd();
    this.set({ session: null, notice });
  }

  private set(snapshot: SessionSnapshot): void {
    this.snapshot = snapshot;
    for (const listener of this.listeners) listener();
  }
}

function isSession(value: unknown): value is Session {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Partial<Session>;
  return (
    typeof s.token === 'string' &&
    s.token.length > 0 &&
    typeof s.schemeId === 'string' &&
    typeof s.placement?.header === 'string' &&
    typeof s.placement.prefix === 'string'
  );
}
