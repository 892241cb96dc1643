import { durationToMs, type CatalogSummaryResponse } from '@store/contract';
import type { BadgeTone } from '../../../components/ui/badge';
import { formatBytes, formatCount, formatDuration } from '../../../lib/format';
import { counted } from '../../../lib/words/counted';

/** One number of the dashboard's "at a glance" row. */
export interface GlanceTile {
  id: string;
  label: string;
  value: string;
  /** success only when the checks behind a good number ran; neutral when nothing was measured. */
  tone: BadgeTone;
  /** What the number means, or why it is not green. */
  note: string;
}

const n = (value: bigint | undefined) => Number(value ?? 0n);
const DAY_MS = 86_400_000;

/** A window such as the stale-after duration: "7 days" rather than "168 h 0 min". */
export function formatWindow(ms: number): string {
  if (ms >= DAY_MS && ms % DAY_MS === 0) {
    const days = ms / DAY_MS;
    return days === 1 ? '1 day' : `${formatCount(days)} days`;
  }
  return formatDuration(ms);
}

/**
 * The verification coverage: a "0 corrupt or missing" means something only for backups that were
 * verified, so it is green only when every backup was verified within the stale window.
 */
export function verificationCoverage(summary: CatalogSummaryResponse) {
  const v = summary.verification;
  const backups = n(summary.backupCount);
  const neverVerified = n(v?.neverVerified);
  const stale = n(v?.verifiedStale);
  const recent = n(v?.verifiedRecently);
  return {
    backups,
    neverVerified,
    stale,
    recent,
    unhealthy: n(v?.corrupt) + n(v?.missing),
    degraded: n(v?.degraded),
    /** Every backup was verified within the window (and there is at least one). */
    complete: backups > 0 && neverVerified === 0 && stale === 0,
  };
}

/** The dashboard's totals, each with the tone it has earned. */
export function glanceTiles(summary: CatalogSummaryResponse): GlanceTile[] {
  const trees = n(summary.treeCount);
  const backups = n(summary.backupCount);
  const succeeded = n(summary.capturesSucceededLastDay);
  const failed = n(summary.capturesFailedLastDay);
  const unprotected = n(summary.unprotectedTreeCount);
  const coverage = verificationCoverage(summary);
  const staleWindow = formatWindow(durationToMs(summary.staleAfter));
  const notRecent = coverage.neverVerified + coverage.stale;
  return [
    { id: 'trees', label: 'Trees', value: formatCount(trees), tone: 'neutral', note: '' },
    { id: 'backups', label: 'Backups', value: formatCount(backups), tone: 'neutral', note: '' },
    {
      id: 'bytes',
      label: 'Stored',
      value: formatBytes(summary.storedBytes),
      tone: 'neutral',
      note: 'Artifact bytes of every backup',
    },
    {
      id: 'succeeded',
      label: 'Backups succeeded, 24 h',
      value: formatCount(succeeded),
      tone: succeeded > 0 ? 'success' : 'neutral',
      note: succeeded > 0 ? '' : 'No backup finished in the last 24 hours',
    },
    {
      id: 'failed',
      label: 'Backups failed, 24 h',
      value: formatCount(failed),
      // A zero with nothing run is no success.
      tone: failed > 0 ? 'danger' : succeeded > 0 ? 'success' : 'neutral',
      note: failed === 0 && succeeded === 0 ? 'No backup ran' : '',
    },
    {
      id: 'unprotected',
      label: 'Unprotected trees',
      value: formatCount(unprotected),
      tone: unprotected > 0 ? 'warning' : trees > 0 ? 'success' : 'neutral',
      note: 'No schedule, or no successful backup within twice its interval',
    },
    {
      id: 'unverified',
      label: 'Not verified recently',
      value: formatCount(notRecent),
      tone: notRecent > 0 ? 'warning' : backups > 0 ? 'success' : 'neutral',
      note:
        backups === 0
          ? 'No backup to verify'
          : `${formatCount(coverage.neverVerified)} never verified, ${formatCount(coverage.stale)} older than ${staleWindow}`,
    },
    {
      id: 'unhealthy',
      label: 'Corrupt or missing',
      value: formatCount(coverage.unhealthy),
      tone: coverage.unhealthy > 0 ? 'danger' : coverage.complete ? 'success' : 'neutral',
      note: coverage.complete
        ? `All ${counted(backups, 'backup')} verified within ${staleWindow}`
        : `Only ${formatCount(coverage.recent)} of ${counted(backups, 'backup')} verified within ${staleWindow}`,
    },
  ];
}
