import { create } from '@bufbuild/protobuf';
import { CatalogSummaryResponseSchema, durationFromMs } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { formatWindow, glanceTiles } from './glance';

const WEEK = 7 * 86_400_000;

function tiles(init: Parameters<typeof create<typeof CatalogSummaryResponseSchema>>[1]) {
  const summary = create(CatalogSummaryResponseSchema, {
    staleAfter: durationFromMs(WEEK),
    ...init,
  });
  return Object.fromEntries(glanceTiles(summary).map((tile) => [tile.id, tile]));
}

describe('glanceTiles', () => {
  it('shows "corrupt or missing 0" in green only when every backup was verified recently', () => {
    const fewChecked = tiles({
      backupCount: 40n,
      verification: { neverVerified: 38n, verifiedRecently: 2n },
    });
    expect(fewChecked.unhealthy).toMatchObject({ value: '0', tone: 'neutral' });
    expect(fewChecked.unhealthy?.note).toBe('Only 2 of 40 backups verified within 7 days');
    expect(fewChecked.unverified).toMatchObject({ value: '38', tone: 'warning' });

    const allChecked = tiles({ backupCount: 40n, verification: { verifiedRecently: 40n } });
    expect(allChecked.unhealthy).toMatchObject({ value: '0', tone: 'success' });
    expect(allChecked.unverified).toMatchObject({ value: '0', tone: 'success' });

    const stale = tiles({ backupCount: 5n, verification: { verifiedStale: 5n, corrupt: 1n } });
    expect(stale.unhealthy).toMatchObject({ value: '1', tone: 'danger' });
  });

  it('never greens a zero nothing was measured for', () => {
    const empty = tiles({});
    expect(empty.failed).toMatchObject({ value: '0', tone: 'neutral', note: 'No backup ran' });
    expect(empty.unprotected?.tone).toBe('neutral');
    expect(empty.unverified).toMatchObject({ tone: 'neutral', note: 'No backup to verify' });
    expect(empty.unhealthy?.tone).toBe('neutral');

    const ran = tiles({ treeCount: 2n, capturesSucceededLastDay: 4n, unprotectedTreeCount: 0n });
    expect(ran.failed?.tone).toBe('success');
    expect(ran.unprotected?.tone).toBe('success');
    const failing = tiles({ capturesSucceededLastDay: 4n, capturesFailedLastDay: 1n });
    expect(failing.failed).toMatchObject({ value: '1', tone: 'danger' });
  });

  it('adds bytes in binary units and writes whole-day windows in days', () => {
    expect(tiles({ storedBytes: 1536n }).bytes?.value).toBe('1.5 KiB');
    expect(formatWindow(WEEK)).toBe('7 days');
    expect(formatWindow(86_400_000)).toBe('1 day');
    expect(formatWindow(90 * 60_000)).toBe('1 h 30 min');
  });
});
