import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  filtersFromSearch,
  searchFromFilters,
  type CatalogFilters,
} from '../utils/catalog-filters';

/** The catalog's filters and page token, read from and written to the URL's search params. */
export function useCatalogFilters(): [
  CatalogFilters,
  (next: CatalogFilters, options?: { push?: boolean }) => void,
] {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(params), [params]);
  const setFilters = useCallback(
    // Filter edits replace the entry; paging pushes one so Back returns to the previous page.
    (next: CatalogFilters, options?: { push?: boolean }) =>
      setParams(searchFromFilters(next), { replace: !options?.push }),
    [setParams],
  );
  return [filters, setFilters];
}
