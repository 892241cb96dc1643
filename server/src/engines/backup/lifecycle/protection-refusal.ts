import type { Protection } from '../../../storage/backup-protection-store.js';
import { failedPrecondition, type StoreError } from '../../errors.js';

/** How a protection reads in a refusal: "protected by alice on 2026-11-25T10:00:00.000Z (legal hold)". */
export function describeProtection(p: Protection): string {
  const why = p.reason ? ` (${p.reason})` : '';
  return `protected by ${p.protectedBy} on ${new Date(p.protectedAt).toISOString()}${why}`;
}

/**
 * FailedPrecondition for a delete that would remove a protected backup: the backup asked for,
 * or a dependant a cascade would take with it. Names the protection so the caller knows whom to
 * ask; nothing is deleted until it is lifted (UnprotectBackup).
 */
export function protectedRefusal(backupId: string, held: readonly Protection[]): StoreError {
  const own = held.find((p) => p.backupId === backupId);
  if (own) {
    return failedPrecondition(
      `backup ${backupId} is ${describeProtection(own)}; unprotect it before deleting it`,
    );
  }
  const first = held[0]!;
  return failedPrecondition(
    `backup ${backupId} cannot be deleted: its dependant ${first.backupId} is ` +
      `${describeProtection(first)}, and its chain is kept with it`,
  );
}
