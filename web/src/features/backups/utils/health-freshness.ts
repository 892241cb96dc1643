import { BackupHealthStatus, type BackupManifest } from '@store/contract';
import type { BadgeTone } from '../../../components/ui/badge';
import { toDate } from '../../../lib/format';

const DAY_MS = 86_400_000;

export interface Freshness {
  tone: BadgeTone;
  /** "Never verified", "Healthy today", "Healthy 3 days ago", "Corrupt", "Missing" … */
  label: string;
  verifiedAt: Date | undefined;
}

/**
 * The "last verified" badge of a backup, from the health fields every manifest carries (so a
 * catalog page needs no call per row).
 */
export function healthFreshness(
  manifest: Pick<BackupManifest, 'lastHealthStatus' | 'lastVerifiedAt'>,
  now: number = Date.now(),
): Freshness {
  const verifiedAt = toDate(manifest.lastVerifiedAt);
  const ago = verifiedAt ? daysAgo(verifiedAt.getTime(), now) : '';
  switch (manifest.lastHealthStatus) {
    case BackupHealthStatus.HEALTHY:
      return { tone: 'success', label: `Healthy ${ago}`.trim(), verifiedAt };
    case BackupHealthStatus.DEGRADED:
      return { tone: 'warning', label: `Degraded ${ago}`.trim(), verifiedAt };
    case BackupHealthStatus.CORRUPT:
      return { tone: 'danger', label: 'Corrupt', verifiedAt };
    case BackupHealthStatus.MISSING:
      return { tone: 'danger', label: 'Missing', verifiedAt };
    default:
      return { tone: 'neutral', label: 'Never verified', verifiedAt };
  }
}

/**
 * Whether restoring or exporting the backup needs an explicit override: its last health report
 * found it CORRUPT or MISSING.
 */
export function needsHealthOverride(manifest: Pick<BackupManifest, 'lastHealthStatus'>): boolean {
  return (
    manifest.lastHealthStatus === BackupHealthStatus.CORRUPT ||
    manifest.lastHealthStatus === BackupHealthStatus.MISSING
  );
}

function daysAgo(at: number, now: number): string {
  const days = Math.max(0, Math.floor((now - at) / DAY_MS));
  if (days === 0) return 'today';
  if (days === 1) return '1 day ago';
  return `${days} days ago`;
}
