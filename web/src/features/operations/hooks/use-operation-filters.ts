import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  filtersFromSearch,
  searchFromFilters,
  type OperationFilters,
} from '../utils/operation-filters';

/** The operations list's filters, read from and written to the URL's search params. */
export function useOperationFilters(): [OperationFilters, (next: OperationFilters) => void] {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(params), [params]);
  const setFilters = useCallback(
    // replace: refining filters should not fill the back button with every keystroke.
    (next: OperationFilters) => setParams(searchFromFilters(next), { replace: true }),
    [setParams],
  );
  return [filters, setFilters];
}
