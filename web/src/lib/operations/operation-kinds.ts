import { StoreOperationKind, StoreOperationState } from '@store/contract';
import { operationKindWords, operationStateWords } from '../words';

/**
 * Which service tracks an operation (DESIGN.md §3: each service sees only its own kinds): the
 * two spec services, and the two insight services (previews, diffs, dry-runs, replays, verify
 * stale backups), the lifecycle service (retention applies) and the restore drill services
 * (status and cancel on RestoreDrillService, the list on DrillProofService), whose RPCs are
 * their own.
 */
export type OperationFamily =
  'backup' | 'schema' | 'backupInsight' | 'schemaInsight' | 'lifecycle' | 'drill';

export const OPERATION_FAMILIES: readonly OperationFamily[] = [
  'backup',
  'schema',
  'backupInsight',
  'schemaInsight',
  'lifecycle',
  'drill',
];

const BACKUP_KINDS: ReadonlySet<StoreOperationKind> = new Set([
  StoreOperationKind.BACKUP,
  StoreOperationKind.INCREMENTAL_BACKUP,
  StoreOperationKind.BACKUP_SET,
  StoreOperationKind.RESTORE,
  StoreOperationKind.COLD_RESTORE,
  StoreOperationKind.BACKUP_HEALTH_CHECK,
  StoreOperationKind.CATALOG_REBUILD,
  StoreOperationKind.CATALOG_SCRUB,
]);

/** Restore and revert previews, diffs and "verify stale backups": BackupInsightService's. */
const BACKUP_INSIGHT_KINDS: ReadonlySet<StoreOperationKind> = new Set([
  StoreOperationKind.RESTORE_PREVIEW,
  StoreOperationKind.BACKUP_DIFF,
  StoreOperationKind.REVERT_PREVIEW,
  StoreOperationKind.STALE_HEALTH_CHECK,
]);

/** Policy dry-runs, dead-letter replays and migration previews: SchemaInsightService's. */
const SCHEMA_INSIGHT_KINDS: ReadonlySet<StoreOperationKind> = new Set([
  StoreOperationKind.POLICY_DRY_RUN,
  StoreOperationKind.DEAD_LETTER_REPLAY,
  StoreOperationKind.MIGRATION_PREVIEW,
]);

/** Retention applies: BackupLifecycleService's. */
const LIFECYCLE_KINDS: ReadonlySet<StoreOperationKind> = new Set([
  StoreOperationKind.RETENTION_APPLY,
]);

/** Restore drills (issue 36): RestoreDrillService's and DrillProofService's. */
const DRILL_KINDS: ReadonlySet<StoreOperationKind> = new Set([StoreOperationKind.RESTORE_DRILL]);

/** The service whose status, list and cancel RPCs see this kind. */
export function familyOf(kind: StoreOperationKind): OperationFamily {
  if (BACKUP_KINDS.has(kind)) return 'backup';
  if (BACKUP_INSIGHT_KINDS.has(kind)) return 'backupInsight';
  if (SCHEMA_INSIGHT_KINDS.has(kind)) return 'schemaInsight';
  if (LIFECYCLE_KINDS.has(kind)) return 'lifecycle';
  if (DRILL_KINDS.has(kind)) return 'drill';
  return 'schema';
}

/** Every named kind the operations pages list, for filters: every service's kinds. */
export const OPERATION_KINDS: readonly StoreOperationKind[] = Object.values(StoreOperationKind)
  .filter((v): v is StoreOperationKind => typeof v === 'number')
  .filter((v) => v !== StoreOperationKind.UNSPECIFIED);

/** Every named state, for filters. */
export const OPERATION_STATES: readonly StoreOperationState[] = [
  StoreOperationState.QUEUED,
  StoreOperationState.RUNNING,
  StoreOperationState.SUCCEEDED,
  StoreOperationState.FAILED,
  StoreOperationState.CANCELLED,
];

/** QUEUED or RUNNING: the operation may still change, so it is worth polling. */
export function isActiveState(state: StoreOperationState): boolean {
  return state === StoreOperationState.QUEUED || state === StoreOperationState.RUNNING;
}

/** SUCCEEDED, FAILED or CANCELLED: never changes again. */
export function isTerminalState(state: StoreOperationState): boolean {
  return (
    state === StoreOperationState.SUCCEEDED ||
    state === StoreOperationState.FAILED ||
    state === StoreOperationState.CANCELLED
  );
}

/** "INCREMENTAL_BACKUP" → "Incremental backup" (lib/words, shared by every page). */
export function kindLabel(kind: StoreOperationKind): string {
  return operationKindWords(kind).words;
}

/** "RUNNING" → "Running". */
export function stateLabel(state: StoreOperationState): string {
  return operationStateWords(state).words;
}

/** The enum value's name as used in URLs ("BACKUP"), or undefined. */
export function kindFromName(name: string): StoreOperationKind | undefined {
  const value = (StoreOperationKind as unknown as Record<string, unknown>)[name];
  return typeof value === 'number' && value !== 0 ? (value as StoreOperationKind) : undefined;
}

export function stateFromName(name: string): StoreOperationState | undefined {
  const value = (StoreOperationState as unknown as Record<string, unknown>)[name];
  return typeof value === 'number' && value !== 0 ? (value as StoreOperationState) : undefined;
}
