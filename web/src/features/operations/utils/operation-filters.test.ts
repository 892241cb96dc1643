import { StoreOperationKind, StoreOperationState } from '@store/contract';
import { describe, expect, it } from 'vitest';
import {
  familiesOf,
  filtersFromSearch,
  listRequestOf,
  PAGE_SIZE,
  searchFromFilters,
} from './operation-filters';

describe('operation filters in the URL', () => {
  it('reads states, kinds, target and limit from the search params', () => {
    const filters = filtersFromSearch(
      new URLSearchParams('state=RUNNING&state=QUEUED&kind=RESTORE&target=orders&limit=100'),
    );
    expect(filters).toEqual({
      states: [StoreOperationState.RUNNING, StoreOperationState.QUEUED],
      kinds: [StoreOperationKind.RESTORE],
      targetId: 'orders',
      limit: 100,
    });
  });

  it('writes the same filters back, so a link reproduces the view', () => {
    const search = 'state=FAILED&kind=MIGRATION&target=t1&limit=150';
    expect(searchFromFilters(filtersFromSearch(new URLSearchParams(search))).toString()).toBe(
      search,
    );
  });

  it('ignores unknown names and falls back to the first page', () => {
    const filters = filtersFromSearch(new URLSearchParams('state=NOPE&kind=42&limit=-3'));
    expect(filters).toEqual({ states: [], kinds: [], targetId: '', limit: PAGE_SIZE });
    expect(searchFromFilters(filters).toString()).toBe('');
  });

  it('asks each service for a page as large as the rows shown', () => {
    const request = listRequestOf({ states: [], kinds: [], targetId: 'x', limit: 100 });
    expect(request).toMatchObject({ pageSize: 100, targetId: 'x' });
  });

  it('skips the service that cannot hold the filtered kinds', () => {
    const only = (kinds: StoreOperationKind[]) =>
      familiesOf({ states: [], kinds, targetId: '', limit: PAGE_SIZE });
    const none = {
      backup: false,
      schema: false,
      backupInsight: false,
      schemaInsight: false,
      lifecycle: false,
      drill: false,
    };
    expect(only([StoreOperationKind.BACKUP])).toEqual({ ...none, backup: true });
    expect(only([StoreOperationKind.COMPLIANCE_SCAN])).toEqual({ ...none, schema: true });
    // Previews, diffs, dry-runs and replays live in the insight services.
    expect(only([StoreOperationKind.RESTORE_PREVIEW, StoreOperationKind.POLICY_DRY_RUN])).toEqual({
      ...none,
      backupInsight: true,
      schemaInsight: true,
    });
    // Retention applies live in the lifecycle service.
    expect(only([StoreOperationKind.RETENTION_APPLY])).toEqual({ ...none, lifecycle: true });
    // Restore drills are listed by DrillProofService, nowhere else.
    expect(only([StoreOperationKind.RESTORE_DRILL])).toEqual({ ...none, drill: true });
    expect(only([])).toEqual({
      backup: true,
      schema: true,
      backupInsight: true,
      schemaInsight: true,
      lifecycle: true,
      drill: true,
    });
  });
});
