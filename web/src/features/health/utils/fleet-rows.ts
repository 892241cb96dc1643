import { timestampMs } from '@bufbuild/protobuf/wkt';
import { BackupHealthStatus, type BackupManifest } from '@store/contract';

export type FleetSortKey = 'verdict' | 'verified' | 'backup' | 'tree' | 'created';
export type SortDirection = 'ascending' | 'descending';

export interface FleetSort {
  key: FleetSortKey;
  direction: SortDirection;
}

/** Worst first: a verdict's rank when sorting ascending (never verified sits with the unknowns). */
const VERDICT_RANK: Record<BackupHealthStatus, number> = {
  [BackupHealthStatus.CORRUPT]: 0,
  [BackupHealthStatus.MISSING]: 1,
  [BackupHealthStatus.DEGRADED]: 2,
  [BackupHealthStatus.UNSPECIFIED]: 3,
  [BackupHealthStatus.HEALTHY]: 4,
};

/** The default order: the worst verdicts first, the longest unverified first among equals. */
export const DEFAULT_FLEET_SORT: FleetSort = { key: 'verdict', direction: 'ascending' };

const verifiedMs = (b: BackupManifest) =>
  b.lastVerifiedAt ? timestampMs(b.lastVerifiedAt) : Number.NEGATIVE_INFINITY;
const createdMs = (b: BackupManifest) => (b.createdAt ? timestampMs(b.createdAt) : 0);

function compareBy(key: FleetSortKey, a: BackupManifest, b: BackupManifest): number {
  switch (key) {
    case 'verdict':
      return VERDICT_RANK[a.lastHealthStatus] - VERDICT_RANK[b.lastHealthStatus];
    // Ascending age: the longest ago (or never) first.
    case 'verified':
      return verifiedMs(a) - verifiedMs(b);
    case 'backup':
      return (a.name || a.backupId).localeCompare(b.name || b.backupId);
    case 'tree':
      return a.treeId.localeCompare(b.treeId);
    case 'created':
      return createdMs(a) - createdMs(b);
  }
}

/** A sorted copy; ties fall back to the oldest verification, then the backup id. */
export function sortFleet(backups: readonly BackupManifest[], sort: FleetSort): BackupManifest[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...backups].sort(
    (a, b) =>
      sign * compareBy(sort.key, a, b) ||
      compareBy('verified', a, b) ||
      a.backupId.localeCompare(b.backupId),
  );
}

/** Clicking a column: the same column flips its direction, another starts ascending. */
export function nextSort(current: FleetSort, key: FleetSortKey): FleetSort {
  if (current.key !== key) return { key, direction: 'ascending' };
  return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}

/** "3 days ago", "5 h ago", "just now": the age of a verification at `now`. */
export function ageOf(atMs: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - atMs) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
