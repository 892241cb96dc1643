/** Roles in rising order of power (DESIGN.md §4): each includes the ones before it. */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Whether `granted` includes `needed` (viewer < operator < admin). */
export function roleCovers(granted: readonly Role[], needed: Role): boolean {
  const rank = ROLES.indexOf(needed);
  return granted.some((role) => ROLES.indexOf(role) >= rank);
}

/** Parses a role name; undefined when it is not one. */
export function parseRole(value: string): Role | undefined {
  return (ROLES as readonly string[]).includes(value) ? (value as Role) : undefined;
}

/** A caller the server has identified from a credential, or the anonymous caller. */
export interface Principal {
  subject: string;
  displayName: string;
  /** The advertised scheme the credential came through: 'bearer', 'oidc' or 'anonymous'. */
  schemeId: string;
  anonymous: boolean;
  /** Tenants the caller is granted, with the roles in each. */
  grants: ReadonlyMap<string, readonly Role[]>;
}

/** The caller with no credential. */
export const ANONYMOUS: Principal = Object.freeze({
  subject: 'anonymous',
  displayName: 'Anonymous',
  schemeId: 'anonymous',
  anonymous: true,
  grants: new Map(),
});

/** Why a presented credential was refused; logged with the reason, never with the token. */
export class CredentialError extends Error {
  override readonly name = 'CredentialError';
  constructor(
    readonly reason: 'malformed' | 'unknown' | 'expired' | 'revoked' | 'invalid',
    message: string,
  ) {
    super(message);
  }
}
