import type { BackupProtection } from '@store/contract';
import { useSubjectName } from '../../../lib/identity/use-subject-name';
import { useBackupProtectionsQuery } from '../api/use-backup-protections';

/** A protection of a backup a cascade would take with it, with its author's name. */
export interface ProtectedDependant {
  protection: BackupProtection;
  /** The author's name (a token's name, "you"), as the Protection panel shows it. */
  by: string;
}

/**
 * Delete's guard on a backup's page: a protected backup is not deleted until unprotected, so
 * Delete stays visible but disabled, saying by whom it is protected and what to do (the server
 * refuses it the same way). Also which dependant, if any, is protected: cascade cannot take it.
 */
export function useDeleteGuard(
  roleGuard: { allowed: boolean; reason: string },
  backupId: string,
  dependants: readonly string[],
): {
  guard: { allowed: boolean; reason: string; disabled?: boolean };
  protectedDependant: ProtectedDependant | undefined;
} {
  const protections = useBackupProtectionsQuery([backupId, ...dependants]);
  const own = protections.data?.get(backupId);
  const dependant = dependants
    .map((id) => protections.data?.get(id))
    .find((p): p is BackupProtection => p !== undefined);
  const ownBy = useSubjectName(own?.protectedBy ?? '').name;
  const dependantBy = useSubjectName(dependant?.protectedBy ?? '').name;
  const protectedDependant = dependant && { protection: dependant, by: dependantBy };
  if (!roleGuard.allowed) return { guard: roleGuard, protectedDependant };
  if (own) {
    return {
      guard: {
        allowed: false,
        reason: `Protected by ${ownBy}${own.reason ? ` — “${own.reason}”` : ''}. Unprotect it to delete it.`,
      },
      protectedDependant,
    };
  }
  // Until the protections are known, Delete waits rather than offering what may be refused.
  return { guard: { ...roleGuard, disabled: protections.isLoading }, protectedDependant };
}
