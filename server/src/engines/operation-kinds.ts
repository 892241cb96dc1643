/**
 * The kinds of tracked operation, named as the proto enum StoreOperationKind without its prefix,
 * and which service family sees which (DESIGN.md §3: the backup service sees backup kinds, the
 * schema service's general RPCs see schema kinds, the compliance-scan RPCs see scans only).
 */
export const BACKUP_OPERATION_KINDS = [
  'BACKUP',
  'INCREMENTAL_BACKUP',
  'BACKUP_SET',
  'RESTORE',
  'COLD_RESTORE',
  'BACKUP_HEALTH_CHECK',
  'CATALOG_REBUILD',
  'CATALOG_SCRUB',
] as const;

export const SCHEMA_OPERATION_KINDS = [
  'COMPLIANCE_SCAN',
  'REMEDIATION',
  'MIGRATION',
  'ADVANCE_AND_MIGRATE',
] as const;

export const COMPLIANCE_OPERATION_KINDS = ['COMPLIANCE_SCAN'] as const;

/** Restore and revert previews and backup diffs: seen by BackupInsightService only (issue 16). */
export const BACKUP_INSIGHT_OPERATION_KINDS = [
  'RESTORE_PREVIEW',
  'BACKUP_DIFF',
  'REVERT_PREVIEW',
  // "Verify stale backups": the health check of every backup not verified recently.
  'STALE_HEALTH_CHECK',
] as const;

export type BackupOperationKind = (typeof BACKUP_OPERATION_KINDS)[number];
export type SchemaOperationKind = (typeof SCHEMA_OPERATION_KINDS)[number];
export type BackupInsightOperationKind = (typeof BACKUP_INSIGHT_OPERATION_KINDS)[number];
export type OperationKind = BackupOperationKind | SchemaOperationKind | BackupInsightOperationKind;

/** Schema-insight kinds (issue 16): seen only by SchemaInsightService's status/list/cancel. */
export const SCHEMA_INSIGHT_OPERATION_KINDS = [
  'POLICY_DRY_RUN',
  'DEAD_LETTER_REPLAY',
  'MIGRATION_PREVIEW',
] as const;

/** Retention applies (backup lifecycle): seen by BackupLifecycleService only. */
export const BACKUP_LIFECYCLE_OPERATION_KINDS = ['RETENTION_APPLY'] as const;

/** Restore drills (issue 36): seen by RestoreDrillService only. */
export const RESTORE_DRILL_OPERATION_KINDS = ['RESTORE_DRILL'] as const;

/**
 * Previews, comparisons and dry-runs: they change nothing and any viewer may start them, so a
 * tenant may have fewer of them queued or running at once than of the work that changes data
 * (docs/security.md, "Operation caps and rate limits").
 */
export const PREVIEW_OPERATION_KINDS = [
  'RESTORE_PREVIEW',
  'BACKUP_DIFF',
  'REVERT_PREVIEW',
  'POLICY_DRY_RUN',
  'MIGRATION_PREVIEW',
] as const;
