import { getBackupNames } from '../../../storage/backup/backup-store.js';
import type { Protection } from '../../../storage/backup/lifecycle/backup-protection-store.js';
import type { TreeDb } from '../../../storage/data/tree-db.js';
import { failedPrecondition, type StoreError } from '../../errors.js';
import { momentWords, quoted } from '../../words.js';

/**
 * Names a recorded subject for a message people read: an API token of the tenant by its name,
 * the scheduler as "Scheduler"; a subject with no known name comes back in words.
 */
export type SubjectNamer = (tenant: string, subject: string) => Promise<string>;

/**
 * A subject no directory names, in words: a token never by its id ("an API token"), an OIDC
 * user by the identity provider's subject, anything else as recorded.
 */
export const UNNAMED_SUBJECTS: SubjectNamer = (_tenant, subject) => {
  if (subject.startsWith('token:')) return Promise.resolve('an API token');
  if (subject.startsWith('oidc:') && subject.length > 5) return Promise.resolve(subject.slice(5));
  return Promise.resolve(subject);
};

/**
 * How a protection reads in a refusal: "protected by Release bot since 25 Nov 2026, 10:00 UTC
 * (legal hold)" — who by name, when in words, why as given.
 */
export function describeProtection(p: Protection, by: string): string {
  const why = p.reason ? ` (${p.reason})` : '';
  return `protected by ${by} since ${momentWords(p.protectedAt)}${why}`;
}

/**
 * FailedPrecondition for a delete that would remove a protected backup: the backup asked for,
 * or a dependant a cascade would take with it. Names the backups and the protection's author so
 * the caller knows whom to ask; nothing is deleted until it is lifted (UnprotectBackup).
 */
export async function protectedRefusal(
  handle: TreeDb,
  tenant: string,
  backupId: string,
  held: readonly Protection[],
  names: SubjectNamer,
): Promise<StoreError> {
  const own = held.find((p) => p.backupId === backupId);
  const shown = own ?? held[0]!;
  const backupNames = await getBackupNames(handle, tenant, [backupId, shown.backupId]);
  const label = (id: string) => `backup ${quoted(backupNames.get(id) ?? id)}`;
  const protection = describeProtection(shown, await names(tenant, shown.protectedBy));
  if (own) {
    return failedPrecondition(
      `${label(backupId)} is ${protection}; unprotect it before deleting it`,
    );
  }
  return failedPrecondition(
    `${label(backupId)} cannot be deleted: ${label(shown.backupId)}, which depends on it, is ` +
      `${protection}, and the backups it needs are kept with it`,
  );
}
