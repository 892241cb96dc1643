import { quoted } from '../words.js';
import type { AuditTargetNames } from './audit-trail.js';

/** Names of those ids that are backups of the tenant (the backup catalog's lookup). */
export type BackupNameLookup = (
  tenant: string,
  ids: readonly string[],
) => Promise<ReadonlyMap<string, string>>;

/** Kind and target of those ids that are operations of the tenant (the operations' lookup). */
export type OperationTargetLookup = (
  tenant: string,
  ids: readonly string[],
) => Promise<ReadonlyMap<string, { kind: string; targetId: string | null }>>;

/** Words for kinds whose plain spelling reads badly (as the console says them). */
const KIND_WORDS: Readonly<Record<string, string>> = {
  BACKUP_HEALTH_CHECK: 'Health check',
  BACKUP_DIFF: 'Backup comparison',
  STALE_HEALTH_CHECK: 'Verify stale backups',
};

/** "INCREMENTAL_BACKUP" → "Incremental backup". */
function kindWords(kind: string): string {
  const known = KIND_WORDS[kind];
  if (known !== undefined) return known;
  const spaced = kind.replaceAll('_', ' ').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/**
 * Names for audit targets: a backup id of the tenant → the backup's name; an operation id of the
 * tenant (a cancel's target) → its kind and what it worked on ("Backup of ledger", "Restore of
 * “full ledger”"). Anything else is left unnamed, its id shown as recorded. At most three
 * queries for a page, whatever its size.
 */
export function auditTargetNames(
  backupNames: BackupNameLookup,
  operationTargets: OperationTargetLookup,
): AuditTargetNames {
  return {
    async namesOf(tenant, targetIds) {
      const names = new Map(await backupNames(tenant, targetIds));
      const rest = targetIds.filter((id) => !names.has(id));
      if (rest.length === 0) return names;
      const operations = await operationTargets(tenant, rest);
      const operationBackups = [...operations.values()].flatMap((o) =>
        o.targetId ? [o.targetId] : [],
      );
      const targetNames =
        operationBackups.length > 0 ? await backupNames(tenant, operationBackups) : new Map();
      for (const [id, { kind, targetId }] of operations) {
        if (!targetId) {
          names.set(id, kindWords(kind));
          continue;
        }
        const backup = targetNames.get(targetId);
        names.set(id, `${kindWords(kind)} of ${backup === undefined ? targetId : quoted(backup)}`);
      }
      return names;
    },
  };
}
