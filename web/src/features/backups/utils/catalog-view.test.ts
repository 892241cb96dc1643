import { timestampDate, timestampFromMs } from '@bufbuild/protobuf/wkt';
import { create } from '@bufbuild/protobuf';
import { BackupCatalogRequestSchema, BackupHealthStatus, BackupKind } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { catalogRequest, filtersFromSearch, searchFromFilters } from './catalog-filters';
import { healthFreshness, needsHealthOverride } from './health-freshness';

describe('catalog filters in the URL', () => {
  it('round-trip through search params and become a ListBackups request', () => {
    const params = new URLSearchParams(
      'tree=orders&kind=INCREMENTAL&set=s-1&name=nightly&from=2025-03-01&to=2025-03-07&page=tok',
    );
    const filters = filtersFromSearch(params);
    expect(searchFromFilters(filters).toString()).toBe(params.toString());
    const request = create(BackupCatalogRequestSchema, catalogRequest(filters));
    expect(request).toMatchObject({
      pageSize: 50,
      pageToken: 'tok',
      treeId: 'orders',
      kind: BackupKind.INCREMENTAL,
      setId: 's-1',
      nameContains: 'nightly',
    });
    // Whole local days: from the 1st's midnight to the 8th's midnight.
    expect(timestampDate(request.createdAfter!)).toEqual(new Date(2025, 2, 1));
    expect(timestampDate(request.createdBefore!)).toEqual(new Date(2025, 2, 8));
  });

  it('drops malformed values instead of sending them', () => {
    const filters = filtersFromSearch(new URLSearchParams('kind=WEEKLY&from=2025-02-30&to=x'));
    expect(filters).toMatchObject({ kind: BackupKind.UNSPECIFIED, createdFrom: '', createdTo: '' });
    expect(catalogRequest(filters)).toEqual({ pageSize: 50, pageToken: '', kind: 0 });
  });
});

describe('last verified badge', () => {
  const now = Date.UTC(2025, 5, 10, 12);
  it('says never, healthy N days ago, or corrupt/missing', () => {
    expect(healthFreshness({ lastHealthStatus: BackupHealthStatus.UNSPECIFIED }, now).label).toBe(
      'Never verified',
    );
    const healthy = (daysAgo: number) =>
      healthFreshness(
        {
          lastHealthStatus: BackupHealthStatus.HEALTHY,
          lastVerifiedAt: timestampFromMs(now - daysAgo * 86_400_000 - 1000),
        },
        now,
      );
    expect(healthy(0)).toMatchObject({ label: 'Healthy today', tone: 'success' });
    expect(healthy(1).label).toBe('Healthy 1 day ago');
    expect(healthy(12).label).toBe('Healthy 12 days ago');
    expect(healthFreshness({ lastHealthStatus: BackupHealthStatus.CORRUPT }, now)).toMatchObject({
      label: 'Corrupt',
      tone: 'danger',
    });
    expect(healthFreshness({ lastHealthStatus: BackupHealthStatus.MISSING }, now).label).toBe(
      'Missing',
    );
  });

  it('asks for an override only for CORRUPT and MISSING', () => {
    const needs = (status: BackupHealthStatus) => needsHealthOverride({ lastHealthStatus: status });
    expect(needs(BackupHealthStatus.CORRUPT)).toBe(true);
    expect(needs(BackupHealthStatus.MISSING)).toBe(true);
    expect(needs(BackupHealthStatus.DEGRADED)).toBe(false);
    expect(needs(BackupHealthStatus.HEALTHY)).toBe(false);
    expect(needs(BackupHealthStatus.UNSPECIFIED)).toBe(false);
  });
});
