import { useRoles } from '../../../lib/identity/use-roles';

/**
 * Whether the caller may put and delete entries. TreeDataService has no capability probe, so
 * this is the role from WhoAmI against the server's least role for PutEntry and DeleteEntry
 * (operator, DESIGN.md §4); a refusal that slips through still shows as the server's error.
 */
export function useEntryWritePermission(): { allowed: boolean; reason: string } {
  const roles = useRoles();
  if (roles.atLeast('operator')) return { allowed: true, reason: '' };
  return {
    allowed: false,
    reason: roles.isLoading ? 'Checking your role…' : roles.needs('operator'),
  };
}
