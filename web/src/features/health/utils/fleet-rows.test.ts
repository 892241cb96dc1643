import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { BackupHealthStatus, BackupManifestSchema } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { ageOf, DEFAULT_FLEET_SORT, nextSort, sortFleet } from './fleet-rows';

const NOW = Date.UTC(2026, 4, 1, 12);
const DAY = 86_400_000;

const backup = (id: string, status: BackupHealthStatus, verifiedDaysAgo?: number) =>
  create(BackupManifestSchema, {
    backupId: id,
    name: id,
    treeId: id.startsWith('a') ? 'alpha' : 'beta',
    lastHealthStatus: status,
    ...(verifiedDaysAgo !== undefined && {
      lastVerifiedAt: timestampFromMs(NOW - verifiedDaysAgo * DAY),
    }),
  });

const FLEET = [
  backup('a-ok', BackupHealthStatus.HEALTHY, 1),
  backup('b-never', BackupHealthStatus.UNSPECIFIED),
  backup('a-bad', BackupHealthStatus.CORRUPT, 3),
  backup('b-old', BackupHealthStatus.HEALTHY, 30),
  backup('b-gone', BackupHealthStatus.MISSING, 2),
];

describe('sortFleet', () => {
  it('puts the worst verdicts first by default, the oldest check first among equals', () => {
    expect(sortFleet(FLEET, DEFAULT_FLEET_SORT).map((b) => b.backupId)).toEqual([
      'a-bad',
      'b-gone',
      'b-never',
      'b-old',
      'a-ok',
    ]);
  });

  it('sorts by age of the last check, never verified as the oldest, and flips on a second click', () => {
    const byAge = nextSort(DEFAULT_FLEET_SORT, 'verified');
    expect(byAge).toEqual({ key: 'verified', direction: 'ascending' });
    expect(sortFleet(FLEET, byAge).map((b) => b.backupId)).toEqual([
      'b-never',
      'b-old',
      'a-bad',
      'b-gone',
      'a-ok',
    ]);
    const flipped = nextSort(byAge, 'verified');
    expect(sortFleet(FLEET, flipped)[0]?.backupId).toBe('a-ok');
    expect(sortFleet(FLEET, { key: 'tree', direction: 'ascending' })[0]?.treeId).toBe('alpha');
  });

  it('writes ages in words', () => {
    expect(ageOf(NOW - 30_000, NOW)).toBe('just now');
    expect(ageOf(NOW - 5 * 60_000, NOW)).toBe('5 min ago');
    expect(ageOf(NOW - 5 * 3_600_000, NOW)).toBe('5 h ago');
    expect(ageOf(NOW - 3 * DAY, NOW)).toBe('3 days ago');
  });
});
