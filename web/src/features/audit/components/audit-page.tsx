import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { useRoles } from '../../../lib/identity/use-roles';
import { useActiveTenant } from '../../../lib/services';
import { isFiltered } from '../utils/audit-filters';
import { useAuditFilters } from '../hooks/use-audit-filters';
import { useListAuditRecordsQuery } from '../api/use-list-audit-records-query';
import { AuditExport } from './audit-export';
import { AuditFiltersForm } from './audit-filters-form';
import { AuditTable } from './audit-table';

/** /audit: the tenant's audit trail (state-changing and refused calls), for admins. */
export function AuditPage() {
  const tenant = useActiveTenant();
  const roles = useRoles();
  const isAdmin = roles.atLeast('admin');
  const [filters, setFilters] = useAuditFilters();
  const list = useListAuditRecordsQuery(filters, isAdmin);
  const records = list.data?.pages.flatMap((page) => page.records) ?? [];
  const filtered = isFiltered(filters);

  if (roles.isLoading) return <Spinner label="Loading…" />;
  if (!isAdmin) {
    return (
      <>
        <PageHeader title="Audit" />
        <EmptyState title="Admins only">
          The audit trail of tenant <strong>{tenant}</strong> is shown to its admins.
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Audit"
        description={
          <>
            Every change and every refused call in tenant <strong>{tenant}</strong>, newest first.
          </>
        }
      />
      <AuditFiltersForm filters={filters} onChange={setFilters} />
      <AuditExport filters={filters} />
      {list.error && (
        <ErrorBanner
          title="Could not load audit records"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      )}
      {list.isPending && <Spinner label="Loading audit records…" />}
      {!list.isPending && !list.error && records.length === 0 && (
        <EmptyState
          title={filtered ? 'No record matches these filters' : 'No audit records yet'}
          action={
            filtered && (
              <Button
                onClick={() =>
                  setFilters({ subject: '', method: '', outcome: '', since: '', until: '' })
                }
              >
                Clear filters
              </Button>
            )
          }
        >
          {filtered
            ? 'Try another outcome or day, or clear the subject and action.'
            : 'Changes (backups, restores, policies, writes …) and refused calls show up here.'}
        </EmptyState>
      )}
      {records.length > 0 && <AuditTable records={records} />}
      {list.hasNextPage && (
        <div className="load-more">
          <Button busy={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            Load more
          </Button>
        </div>
      )}
    </>
  );
}
