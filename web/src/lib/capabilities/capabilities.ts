import { describeError } from '../errors';

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
  state: { isLoading: boolean; error: unknown; tenant: string },
): Capabilities<Op> {
  const set: ReadonlySet<Op> = new Set(allowed ?? []);
  const reasonFor = (): string => {
    if (state.isLoading) return 'Checking your permissions…';
    if (state.error) return `Permissions could not be checked (${describeError(state.error)})`;
    return `Your role in tenant ${state.tenant} does not allow this`;
  };
  return {
    allowed: set,
    can: (operation) => set.has(operation),
    guard: (operation) =>
      set.has(operation) ? { allowed: true, reason: '' } : { allowed: false, reason: reasonFor() },
    isLoading: state.isLoading,
    error: state.error,
  };
}
