/**
 * How operation kinds read in the metrics' `kind` label: the backup work by what it does
 * (capture, restore, verify, drill: the runs the alerts watch), every other kind by its own name
 * in lower case (compliance_scan, retention_apply…). Either way a short, fixed list.
 */
const BY_OPERATION_KIND: Readonly<Record<string, RunKind>> = {
  BACKUP: 'capture',
  INCREMENTAL_BACKUP: 'capture',
  BACKUP_SET: 'capture',
  RESTORE: 'restore',
  COLD_RESTORE: 'restore',
  BACKUP_HEALTH_CHECK: 'verify',
  STALE_HEALTH_CHECK: 'verify',
  RESTORE_DRILL: 'drill',
};

export type RunKind = 'capture' | 'restore' | 'verify' | 'drill';

/** The run kinds store_backup_runs_total counts; other operations are not backup runs. */
export function runKindOf(operationKind: string): RunKind | undefined {
  return (
    BY_OPERATION_KIND[operationKind] ?? (operationKind.includes('DRILL') ? 'drill' : undefined)
  );
}

/** The `kind` of store_operations_running and _stuck. */
export function operationKindLabel(operationKind: string): string {
  return runKindOf(operationKind) ?? operationKind.toLowerCase();
}
