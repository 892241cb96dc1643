import { timestampMs, type Timestamp } from '@bufbuild/protobuf/wkt';
import {
  BackupHealthStatus,
  StoreOperationState,
  type BackupManifest,
  type StoreOperationStatus,
} from '@store/contract';

export const DAY_MS = 24 * 60 * 60 * 1000;
/** The window the "recent" sections look at. */
export const RECENT_WINDOW_MS = DAY_MS;
/** The window of the backup-size chart. */
export const HISTORY_WINDOW_MS = 30 * DAY_MS;

/**
 * A created_after cutoff that stays the same for `stepMs`, so the query key (and the cache) does
 * not change on every render; rows a little older than the window are dropped client-side.
 */
export function stableCutoff(now: number, windowMs: number, stepMs = 5 * 60 * 1000): number {
  return Math.floor((now - windowMs) / stepMs) * stepMs;
}

const ms = (timestamp: Timestamp | undefined): number | undefined =>
  timestamp ? timestampMs(timestamp) : undefined;

/** Operations that FAILED and were created at or after `sinceMs`, newest first as given. */
export function failedSince(
  operations: readonly StoreOperationStatus[],
  sinceMs: number,
): StoreOperationStatus[] {
  return operations.filter(
    (op) => op.state === StoreOperationState.FAILED && (ms(op.createdAt) ?? 0) >= sinceMs,
  );
}

/** A backup whose latest health report found it CORRUPT or its artifacts MISSING. */
export function isUnhealthy(backup: BackupManifest): boolean {
  return (
    backup.lastHealthStatus === BackupHealthStatus.CORRUPT ||
    backup.lastHealthStatus === BackupHealthStatus.MISSING
  );
}

/** One finished operation's run time, for the durations chart. */
export interface OperationDurationPoint {
  operationId: string;
  operation: StoreOperationStatus;
  finishedMs: number;
  durationMs: number;
}

/** Finished operations with a start and an end, oldest first. */
export function operationDurations(
  operations: readonly StoreOperationStatus[],
): OperationDurationPoint[] {
  const points: OperationDurationPoint[] = [];
  for (const op of operations) {
    const started = ms(op.startedAt);
    const finished = ms(op.finishedAt);
    if (started === undefined || finished === undefined) continue;
    points.push({
      operationId: op.operationId,
      operation: op,
      finishedMs: finished,
      durationMs: Math.max(0, finished - started),
    });
  }
  return points.sort((a, b) => a.finishedMs - b.finishedMs);
}

/** One backup's stored size at its creation time. */
export interface BackupSizePoint {
  backupId: string;
  name: string;
  atMs: number;
  bytes: number;
}

/** Backups grouped by tree, each tree's points oldest first; trees by their total bytes. */
export function backupSizesByTree(
  backups: readonly BackupManifest[],
): { treeId: string; points: BackupSizePoint[]; totalBytes: number }[] {
  const byTree = new Map<string, BackupSizePoint[]>();
  for (const backup of backups) {
    const atMs = ms(backup.createdAt);
    if (atMs === undefined) continue;
    const points = byTree.get(backup.treeId) ?? [];
    points.push({
      backupId: backup.backupId,
      name: backup.name,
      atMs,
      bytes: Number(backup.byteSize),
    });
    byTree.set(backup.treeId, points);
  }
  return [...byTree.entries()]
    .map(([treeId, points]) => ({
      treeId,
      points: points.sort((a, b) => a.atMs - b.atMs),
      totalBytes: points.reduce((sum, point) => sum + point.bytes, 0),
    }))
    .sort((a, b) => b.totalBytes - a.totalBytes || a.treeId.localeCompare(b.treeId));
}
