import { describeError } from '../errors';
import type { Roles } from '../identity/use-roles';
import type { Role } from '../identity/role-reason';

/** What a capability probe allows, with the reason to show on anything it does not. */
export interface Capabilities<Op extends number> {
  /** The allowed operations; empty while loading or after a failed probe. */
  allowed: ReadonlySet<Op>;
  can: (operation: Op) => boolean;
  /** Props for <GuardedButton>: `<GuardedButton {...caps.guard(Op.START_BACKUP)}>`. */
  guard: (operation: Op) => { allowed: boolean; reason: string };
  isLoading: boolean;
  error: unknown;
}

/** Builds the Capabilities view; fails closed (nothing allowed) until the probe answers. */
export function capabilitiesOf<Op extends number>(
  allowed: readonly Op[] | undefined,
  state: {
    isLoading: boolean;
    error: unknown;
    tenant: string;
    /**
     * The role sentence the rest of the console uses ("Needs the admin role (you are a viewer
     * in tenant acme).") when the caller's role is what falls short; undefined otherwise.
     */
    needs?: (operation: Op) => string | undefined;
  },
): Capabilities<Op> {
  const set: ReadonlySet<Op> = new Set(allowed ?? []);
  const reasonFor = (operation: Op): string => {
    if (state.isLoading) return 'Checking your permissions…';
    if (state.error) return `Permissions could not be checked (${describeError(state.error)})`;
    return state.needs?.(operation) ?? `Your role in tenant ${state.tenant} does not allow this`;
  };
  return {
    allowed: set,
    can: (operation) => set.has(operation),
    guard: (operation) =>
      set.has(operation)
        ? { allowed: true, reason: '' }
        : { allowed: false, reason: reasonFor(operation) },
    isLoading: state.isLoading,
    error: state.error,
  };
}

/**
 * "Needs the <role> role (you are …)." when the caller's roles are below what the operation
 * needs; undefined while the roles load, or when they suffice (another authorizer refused it).
 */
export function roleShortfall(roles: Roles, needed: Role | undefined): string | undefined {
  if (roles.isLoading) return undefined;
  const role = needed ?? 'viewer';
  return roles.atLeast(role) ? undefined : roles.needs(role);
}
