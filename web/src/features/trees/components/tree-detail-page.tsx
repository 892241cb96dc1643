import type { TreeEntry } from '@store/contract';
import { useId, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Breadcrumb } from '../../../components/ui/breadcrumb';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import { pageNumber } from '../utils/entry-browse';
import { formatJsonText } from '../utils/json-text';
import { useEntryBrowse } from '../hooks/use-entry-browse';
import { useEntryWritePermission } from '../hooks/use-entry-write-permission';
import { useListEntriesQuery } from '../api/use-list-entries-query';
import { useTreeExistsQuery } from '../api/use-tree-exists-query';
import { DeleteEntryDialog } from './delete-entry-dialog';
import { EntriesTable } from './entries-table';
import { EntrySearchForm } from './entry-search-form';
import { EntryValueDialog } from './entry-value-dialog';
import { PutEntryDialog, type EntryDraft } from './put-entry-dialog';
import { TreeSchemaSummary } from './tree-schema-summary';

type Editing = { draft: EntryDraft; existing: boolean } | null;

/** /trees/:treeId — browse a tree's entries by key prefix, view, put and delete them. */
export function TreeDetailPage({
  drillsPanel,
}: {
  /** The tree's restore drills (the drills feature's, passed in by the app). */
  drillsPanel?: (treeId: string) => ReactNode;
} = {}) {
  const { treeId = '' } = useParams();
  const tenant = useActiveTenant();
  const [browse, setBrowse] = useEntryBrowse();
  const entries = useListEntriesQuery(treeId, browse);
  const write = useEntryWritePermission();
  const reasonId = useId();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<string | null>(null);

  const rows = entries.data?.entries ?? [];
  // No entries on the first unfiltered page: is there such a tree at all?
  const looksEmpty =
    entries.isSuccess && rows.length === 0 && !browse.prefix && browse.pages.length === 0;
  const exists = useTreeExistsQuery(treeId, looksEmpty);
  const missing = looksEmpty && exists.data === false;
  const checking = looksEmpty && exists.isPending;
  const nextToken = entries.data?.nextPageToken ?? '';
  const edit = (entry: TreeEntry) =>
    setEditing({
      draft: { key: entry.key, valueJson: formatJsonText(entry.valueJson) },
      existing: true,
    });

  return (
    <>
      <Breadcrumb section="Trees" to={paths.trees} current={treeId} />
      <PageHeader
        title={`Tree ${treeId}`}
        description={
          <>
            Live entries of tree <strong>{treeId}</strong> in tenant <strong>{tenant}</strong>, in
            key order.
          </>
        }
        actions={
          <GuardedButton
            variant="primary"
            allowed={write.allowed}
            reason={write.reason}
            onClick={() => setEditing({ draft: { key: '', valueJson: '' }, existing: false })}
          >
            Put entry
          </GuardedButton>
        }
      />
      <TreeSchemaSummary treeId={treeId} />
      <EntrySearchForm
        prefix={browse.prefix}
        onSearch={(prefix) => setBrowse({ prefix, pages: [], openKey: null }, true)}
      />
      {!write.allowed && (
        <p id={reasonId} className="visually-hidden">
          {write.reason}
        </p>
      )}
      {entries.error && (
        <ErrorBanner
          title="Could not load entries"
          error={entries.error}
          onRetry={() => void entries.refetch()}
        />
      )}
      {entries.isPending && <Spinner label="Loading entries…" />}
      {missing && (
        <EmptyState
          title={`No tree named “${treeId}”`}
          action={<Link to={paths.trees}>See the tenant’s trees</Link>}
        >
          Tenant {tenant} has no tree of this name: check the address for a typo. Putting an entry
          here, importing into this name or restoring a backup into it makes the tree.
        </EmptyState>
      )}
      {checking && <Spinner label="Looking for the tree…" />}
      {entries.isSuccess && rows.length === 0 && !missing && !checking && (
        <EmptyState
          title={browse.prefix ? `No key starts with “${browse.prefix}”` : 'No entries'}
          action={
            browse.prefix ? (
              <Button onClick={() => setBrowse({ prefix: '', pages: [], openKey: null }, true)}>
                Show all keys
              </Button>
            ) : undefined
          }
        >
          {browse.prefix
            ? 'Try a shorter prefix; keys are matched from their first character, case-sensitive.'
            : 'This tree holds no live entries. Put one, or restore a backup into it.'}
        </EmptyState>
      )}
      {rows.length > 0 && (
        <EntriesTable
          entries={rows}
          write={{ ...write, reasonId }}
          onView={(key) => setBrowse({ ...browse, openKey: key })}
          onEdit={edit}
          onDelete={setDeleting}
        />
      )}
      {(browse.pages.length > 0 || nextToken) && (
        <nav className="pager" aria-label="Entry pages">
          <Button
            disabled={browse.pages.length === 0}
            onClick={() =>
              setBrowse({ ...browse, pages: browse.pages.slice(0, -1), openKey: null }, true)
            }
          >
            Previous page
          </Button>
          <span aria-live="polite">Page {pageNumber(browse)}</span>
          <Button
            disabled={!nextToken || entries.isPlaceholderData}
            onClick={() =>
              setBrowse({ ...browse, pages: [...browse.pages, nextToken], openKey: null }, true)
            }
          >
            Next page
          </Button>
        </nav>
      )}
      {!missing && drillsPanel?.(treeId)}
      {browse.openKey !== null && (
        <EntryValueDialog
          treeId={treeId}
          entryKey={browse.openKey}
          write={write}
          onEdit={(entry) => {
            setBrowse({ ...browse, openKey: null });
            edit(entry);
          }}
          onDelete={(key) => {
            setBrowse({ ...browse, openKey: null });
            setDeleting(key);
          }}
          onClose={() => setBrowse({ ...browse, openKey: null })}
        />
      )}
      {editing && (
        <PutEntryDialog
          treeId={treeId}
          draft={editing.draft}
          editing={editing.existing}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting !== null && (
        <DeleteEntryDialog
          treeId={treeId}
          entryKey={deleting}
          onDone={() => setDeleting(null)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </>
  );
}
