import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import {
  auditFiltersFromSearch,
  searchFromAuditFilters,
  type AuditFilters,
} from '../utils/audit-filters';

/** The audit list's filters, read from and written to the URL's search params. */
export function useAuditFilters(): [AuditFilters, (next: AuditFilters) => void] {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => auditFiltersFromSearch(params), [params]);
  const setFilters = useCallback(
    (next: AuditFilters) => setParams(searchFromAuditFilters(next), { replace: true }),
    [setParams],
  );
  return [filters, setFilters];
}
