import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { BackupKind, type BackupCatalogRequestSchema } from '@store/contract';

/** Rows per catalog page (the server's default; at most 1 000). */
export const CATALOG_PAGE_SIZE = 50;

/** The catalog view as the URL holds it: filters and the page token being shown. */
export interface CatalogFilters {
  treeId: string;
  kind: BackupKind;
  setId: string;
  name: string;
  /** Local calendar days (YYYY-MM-DD), inclusive; '' when open. */
  createdFrom: string;
  createdTo: string;
  /** The ListBackups page token of the shown page; '' for the first page. */
  page: string;
}

export const EMPTY_FILTERS: CatalogFilters = {
  treeId: '',
  kind: BackupKind.UNSPECIFIED,
  setId: '',
  name: '',
  createdFrom: '',
  createdTo: '',
  page: '',
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Reads the filters from search params; anything malformed is ignored rather than sent. */
export function filtersFromSearch(params: URLSearchParams): CatalogFilters {
  const kind = params.get('kind');
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) && localDay(value) ? value : '';
  };
  return {
    treeId: params.get('tree')?.trim() ?? '',
    kind:
      kind === 'FULL'
        ? BackupKind.FULL
        : kind === 'INCREMENTAL'
          ? BackupKind.INCREMENTAL
          : BackupKind.UNSPECIFIED,
    setId: params.get('set')?.trim() ?? '',
    name: params.get('name')?.trim() ?? '',
    createdFrom: day('from'),
    createdTo: day('to'),
    page: params.get('page') ?? '',
  };
}

/** The search params of a view; empty filters are left out so links stay short. */
export function searchFromFilters(filters: CatalogFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.treeId) params.set('tree', filters.treeId);
  if (filters.kind !== BackupKind.UNSPECIFIED) params.set('kind', BackupKind[filters.kind]);
  if (filters.setId) params.set('set', filters.setId);
  if (filters.name) params.set('name', filters.name);
  if (filters.createdFrom) params.set('from', filters.createdFrom);
  if (filters.createdTo) params.set('to', filters.createdTo);
  if (filters.page) params.set('page', filters.page);
  return params;
}

/** Whether any filter (not the page) narrows the catalog. */
export function isFiltered(filters: CatalogFilters): boolean {
  return (
    !!filters.treeId ||
    filters.kind !== BackupKind.UNSPECIFIED ||
    !!filters.setId ||
    !!filters.name ||
    !!filters.createdFrom ||
    !!filters.createdTo
  );
}

/**
 * The ListBackups request of a view. The day range is the reader's local days: "from" starts at
 * its local midnight, "to" ends at the next local midnight (inclusive of the whole day).
 */
export function catalogRequest(
  filters: CatalogFilters,
): MessageInitShape<typeof BackupCatalogRequestSchema> {
  const from = filters.createdFrom ? localDay(filters.createdFrom) : undefined;
  const to = filters.createdTo ? localDay(filters.createdTo) : undefined;
  if (to) to.setDate(to.getDate() + 1);
  return {
    pageSize: CATALOG_PAGE_SIZE,
    pageToken: filters.page,
    kind: filters.kind,
    ...(filters.treeId && { treeId: filters.treeId }),
    ...(filters.setId && { setId: filters.setId }),
    ...(filters.name && { nameContains: filters.name }),
    ...(from && { createdAfter: timestampFromDate(from) }),
    ...(to && { createdBefore: timestampFromDate(to) }),
  };
}

/** "2025-03-07" → that day's local midnight; undefined for an impossible date. */
function localDay(value: string): Date | undefined {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(y, m - 1, d);
  return date.getFullYear() === y && date.getMonth() === m - 1 && date.getDate() === d
    ? date
    : undefined;
}
