/**
 * Small JSON helpers over the browser storages. Credentials and everything tied to a sign-in go
 * to sessionStorage only (DESIGN.md §6: tokens live in memory and sessionStorage, never
 * localStorage); only the theme preference, which is not a credential, uses localStorage.
 */

/** Every sessionStorage key of the console starts with this, so sign-out can find them. */
export const SESSION_KEY_PREFIX = 'store.';

export function readSessionJson<T>(key: string): T | undefined {
  try {
    const raw = globalThis.sessionStorage?.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    // A corrupt or unavailable entry is treated as absent: the user signs in again.
    return undefined;
  }
}

export function writeSessionJson(key: string, value: unknown): void {
  try {
    globalThis.sessionStorage?.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled (private mode): the value stays in memory for this page only.
  }
}

export function removeSessionItem(key: string): void {
  try {
    globalThis.sessionStorage?.removeItem(key);
  } catch {
    // Nothing to remove when storage is unavailable.
  }
}

/**
 * Clears this tab's sessionStorage: every entry there belongs to the console (its own keys and
 * oidc-client-ts's user and sign-in state), and none may outlive a sign-out.
 */
export function clearSessionStorage(): void {
  try {
    globalThis.sessionStorage?.clear();
  } catch {
    // Nothing stored.
  }
}
