import { StoreBackupApiOperation } from '@store/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { useBackupCapabilities } from '../../../lib/capabilities/use-backup-capabilities';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import {
  compareBlocker,
  compareOrder,
  toggleCompare,
  type CompareSelection,
} from '../utils/compare-selection';
import { emptyCaptureDraft } from '../utils/capture-draft';
import { catalogRequest, EMPTY_FILTERS, isFiltered } from '../utils/catalog-filters';
import { useCatalogFilters } from '../hooks/use-catalog-filters';
import { useBackupProtectionsQuery } from '../api/use-backup-protections';
import { useListBackupsQuery } from '../../../lib/backups/use-list-backups-query';
import { treeIds, useListTreesQuery } from '../../../lib/trees/use-list-trees-query';
import { CatalogFiltersForm } from './catalog-filters-form';
import { CatalogTable } from './catalog-table';
import { useNow } from '../../../lib/use-now';
import { useBackupProofsQuery } from '../../../lib/drills/use-backup-proofs-query';
import { StartBackupDialog } from './start-backup-dialog';

/** /backups — the catalog, one keyset page at a time, filters and page token in the URL. */
export function BackupsPage() {
  const tenant = useActiveTenant();
  const [filters, setFilters] = useCatalogFilters();
  // Paging keeps the old rows on screen until the next page arrives.
  const list = useListBackupsQuery(catalogRequest(filters), { keepPreviousPage: true });
  const trees = useListTreesQuery({ select: treeIds });
  const treeNames = trees.data ?? [];
  // Roles decide, not the tree: any tree name serves as the probe's scope.
  const caps = useBackupCapabilities(filters.treeId || treeNames[0] || 'default');
  const [starting, setStarting] = useState(false);
  // Tokens of the pages before the shown one: "Previous" walks back without the server's help.
  const [previousPages, setPreviousPages] = useState<string[]>([]);
  const [comparing, setComparing] = useState<CompareSelection>([]);
  const navigate = useNavigate();
  const blocker = compareBlocker(comparing);
  const compare = () => {
    const pair = compareOrder(comparing);
    if (pair) void navigate(paths.backupCompare(pair[0].backupId, pair[1].backupId));
  };

  const backups = list.data?.backups ?? [];
  const protections = useBackupProtectionsQuery(backups.map((b) => b.backupId));
  const proofs = useBackupProofsQuery(backups.map((b) => b.backupId));
  const now = useNow();
  const nextToken = list.data?.nextPageToken ?? '';
  const filtered = isFiltered(filters);

  const changeFilters = (next: typeof filters) => {
    setPreviousPages([]);
    setFilters(next);
  };
  const nextPage = () => {
    setPreviousPages([...previousPages, filters.page]);
    setFilters({ ...filters, page: nextToken }, { push: true });
  };
  const previousPage = () => {
    setFilters({ ...filters, page: previousPages.at(-1) ?? '' }, { push: true });
    setPreviousPages(previousPages.slice(0, -1));
  };

  return (
    <>
      <PageHeader
        title="Backups"
        description={
          <>
            The backup catalog of tenant <strong>{tenant}</strong>, newest first.
          </>
        }
        actions={
          <GuardedButton
            variant="primary"
            {...caps.guard(StoreBackupApiOperation.START_BACKUP)}
            onClick={() => setStarting(true)}
          >
            Start backup
          </GuardedButton>
        }
      />
      <CatalogFiltersForm filters={filters} trees={treeNames} onChange={changeFilters} />
      {list.error && (
        <ErrorBanner
          title="Could not load the catalog"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      )}
      {list.isPending && <Spinner label="Loading backups…" />}
      {!list.isPending && !list.error && backups.length === 0 && (
        <EmptyState
          title={filtered ? 'No backup matches these filters' : 'No backups yet'}
          action={
            filtered && <Button onClick={() => changeFilters(EMPTY_FILTERS)}>Clear filters</Button>
          }
        >
          {filtered
            ? 'Try another tree, kind or date range.'
            : 'Start a full backup of a tree; incrementals and sets build on it.'}
        </EmptyState>
      )}
      {backups.length > 0 && (
        <>
          <div className="compare-bar" role="group" aria-label="Compare two backups">
            <span className="muted">
              {comparing.length === 0
                ? 'Tick two backups of one tree to see what changed between them.'
                : `${comparing.length} of 2 picked${blocker && comparing.length === 2 ? `: ${blocker}` : ''}`}
            </span>
            <Button onClick={compare} disabled={blocker !== undefined} title={blocker}>
              Compare
            </Button>
          </div>
          <CatalogTable
            backups={backups}
            protections={protections.data}
            proofs={proofs.data}
            now={now}
            selected={comparing.map((b) => b.backupId)}
            onToggle={(backup) => setComparing(toggleCompare(comparing, backup))}
          />
        </>
      )}
      {(filters.page || nextToken) && (
        <nav className="bk-pager" aria-label="Catalog pages">
          <Button onClick={previousPage} disabled={!filters.page || list.isFetching}>
            {previousPages.length > 0 || !filters.page ? 'Previous page' : 'First page'}
          </Button>
          <Button onClick={nextPage} disabled={!nextToken || list.isFetching}>
            Next page
          </Button>
        </nav>
      )}
      <StartBackupDialog
        open={starting}
        initial={emptyCaptureDraft('full', filters.treeId)}
        trees={treeNames}
        treesLoaded={trees.isSuccess}
        onClose={() => setStarting(false)}
      />
    </>
  );
}
