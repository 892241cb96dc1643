/** DESIGN.md §4: viewer < operator < admin; a higher role includes the lower ones. */
export const ROLE_ORDER = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLE_ORDER)[number];

/** The highest of the roles held, or undefined for none the console knows. */
export function highestRole(held: readonly string[]): Role | undefined {
  const rank = Math.max(-1, ...held.map((r) => ROLE_ORDER.indexOf(r as Role)));
  return rank < 0 ? undefined : ROLE_ORDER[rank];
}

/**
 * Why a control is disabled for a caller's role, in one sentence used everywhere: the role it
 * needs and the one the caller has, e.g. "Needs the operator role (you are a viewer in tenant
 * acme)."
 */
export function needsRole(role: Role, held: readonly string[], tenant?: string): string {
  const where = tenant ? ` in tenant ${tenant}` : '';
  const highest = highestRole(held);
  const have = highest
    ? `you are ${/^[aeiou]/.test(highest) ? 'an' : 'a'} ${highest}${where}`
    : `you have no role${where || ' here'}`;
  return `Needs the ${role} role (${have}).`;
}
