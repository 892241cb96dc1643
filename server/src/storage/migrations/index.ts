import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../database.js';
import { treesEntriesOperations } from './0001-trees-entries-operations.js';
import { apiTokens } from './0004-api-tokens.js';
import { schemaTables } from './0005-schema.js';
import { backupTables } from './0006-backup.js';
import { backupOperation } from './0007-backup-operation.js';
import { auditRecords } from './0008-audit-records.js';
import { deadLetterReplay } from './0009-dead-letter-replay.js';
import { backupComparisons } from './0011-backup-comparisons.js';
import { restoreInstalledSequence } from './0012-restore-installed-sequence.js';
import { deadLetterDiscard } from './0013-dead-letter-discard.js';
import { backupScopesByScope } from './0014-backup-scopes-by-scope.js';
import { backupLifecycle } from './0016-backup-lifecycle.js';
import { scheduleExtras } from './0017-schedule-extras.js';
import { backupByteSize } from './0018-backup-byte-size.js';
import { operationCancelledBy } from './0019-operation-cancelled-by.js';
import { backupsByScope } from './0020-backups-by-scope.js';
import { differenceStorage } from './0021-difference-storage.js';
import { backupDamagedSince } from './0022-backup-damaged-since.js';
import { restoreRevertedBy } from './0023-restore-reverted-by.js';
import { auditTargetName } from './0024-audit-target-name.js';
import { keptEntryCounts } from './0025-kept-entry-counts.js';
import { backupsForMetrics } from './0026-backups-for-metrics.js';
import { backupContentDigest } from './0027-backup-content-digest.js';
import { notifications } from './0028-notifications.js';
import { restoreDrills } from './0029-restore-drills.js';
import { restoreDrillPlans } from './0030-restore-drill-plans.js';
import { drillProofReadings } from './0031-drill-proof-readings.js';
import { drillProofs } from './0032-drill-proofs.js';

/**
 * Every migration, in order. Names sort in apply order; a released migration is never edited
 * (add a new one instead).
 */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001-trees-entries-operations': treesEntriesOperations(dialect),
    '0004-api-tokens': apiTokens(dialect),
    '0005-schema': schemaTables(dialect),
    '0006-backup': backupTables(dialect),
    '0007-backup-operation': backupOperation(dialect),
    '0008-audit-records': auditRecords(dialect),
    '0009-dead-letter-replay': deadLetterReplay(dialect),
    '0011-backup-comparisons': backupComparisons(dialect),
    '0012-restore-installed-sequence': restoreInstalledSequence(dialect),
    '0013-dead-letter-discard': deadLetterDiscard(dialect),
    '0014-backup-scopes-by-scope': backupScopesByScope(dialect),
    '0016-backup-lifecycle': backupLifecycle(dialect),
    '0017-schedule-extras': scheduleExtras(),
    '0018-backup-byte-size': backupByteSize(dialect),
    '0019-operation-cancelled-by': operationCancelledBy(),
    '0020-backups-by-scope': backupsByScope(),
    '0021-difference-storage': differenceStorage(dialect),
    '0022-backup-damaged-since': backupDamagedSince(dialect),
    '0023-restore-reverted-by': restoreRevertedBy(),
    '0024-audit-target-name': auditTargetName(),
    '0025-kept-entry-counts': keptEntryCounts(dialect),
    '0026-backups-for-metrics': backupsForMetrics(),
    '0027-backup-content-digest': backupContentDigest(dialect),
    '0028-notifications': notifications(dialect),
    '0029-restore-drills': restoreDrills(dialect),
    '0030-restore-drill-plans': restoreDrillPlans(dialect),
    '0031-drill-proof-readings': drillProofReadings(),
    '0032-drill-proofs': drillProofs(),
  };
  return { getMigrations: async () => migrations };
}
