import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { useActiveTenant } from '../../../lib/services';
import { useEntryWritePermission } from '../hooks/use-entry-write-permission';
import { useListTreesInfiniteQuery } from '../api/use-list-trees-infinite-query';
import { ImportEntriesDialog } from './import-entries-dialog';
import { TreesTable } from './trees-table';

/** /trees: the tenant's trees with entry counts, policies and dead letters. */
export function TreesPage() {
  const tenant = useActiveTenant();
  const trees = useListTreesInfiniteQuery();
  const rows = trees.data?.pages.flatMap((page) => page.trees) ?? [];
  const write = useEntryWritePermission();
  const [importing, setImporting] = useState(false);

  return (
    <>
      <PageHeader
        title="Trees"
        description={
          <>
            Trees of tenant <strong>{tenant}</strong>: open one to browse, put and delete entries.
          </>
        }
        actions={
          <GuardedButton
            allowed={write.allowed}
            reason={write.reason}
            onClick={() => setImporting(true)}
          >
            Import JSON Lines
          </GuardedButton>
        }
      />
      {importing && <ImportEntriesDialog onClose={() => setImporting(false)} />}
      {trees.error && (
        <ErrorBanner
          title="Could not load trees"
          error={trees.error}
          onRetry={() => void trees.refetch()}
        />
      )}
      {trees.isPending && <Spinner label="Loading trees…" />}
      {!trees.isPending && !trees.error && rows.length === 0 && (
        <EmptyState
          title="No trees yet"
          action={
            <GuardedButton
              variant="primary"
              allowed={write.allowed}
              reason={write.reason}
              onClick={() => setImporting(true)}
            >
              Import a file
            </GuardedButton>
          }
        >
          Start by importing a JSON Lines file (one entry a line): it makes the tree. A tree also
          appears with its first entry written through the data API, or by a restore into a new
          tree.
        </EmptyState>
      )}
      {rows.length > 0 && <TreesTable trees={rows} />}
      {trees.hasNextPage && (
        <div className="load-more">
          <Button busy={trees.isFetchingNextPage} onClick={() => void trees.fetchNextPage()}>
            Load more
          </Button>
        </div>
      )}
    </>
  );
}
