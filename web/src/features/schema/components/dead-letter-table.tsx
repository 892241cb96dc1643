import type { DeadLetterRecord } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { Spinner } from '../../../components/ui/spinner';
import { Table } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { reasonLabel } from '../api/dead-letter-reason';
import type { useListDeadLetterRecordsQuery } from '../hooks/use-schema-insight';

/** Rows per page of the dead-letter table. */
export const DEAD_LETTER_PAGE_SIZE = 20;

/** One page of pending dead letters with View and Discard per row, and the pager. */
export function DeadLetterTable({
  query,
  page,
  onPage,
  onView,
  onDiscard,
  discard,
}: {
  query: ReturnType<typeof useListDeadLetterRecordsQuery>;
  /** 0-based page index. */
  page: number;
  onPage: (delta: 1 | -1) => void;
  onView: (letter: DeadLetterRecord) => void;
  onDiscard: (letter: DeadLetterRecord) => void;
  discard: { allowed: boolean; reason: string };
}) {
  const rows = query.data?.deadLetters ?? [];
  const first = page * DEAD_LETTER_PAGE_SIZE;
  return (
    <div className="stack">
      {query.isError ? (
        <ErrorBanner
          title="Reading dead letters failed"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : query.isPending ? (
        <Spinner label="Reading dead letters…" />
      ) : (
        <Table
          caption={`Dead letters ${first + 1}–${first + rows.length}`}
          columns={[
            { id: 'key', header: 'Key', cell: (d) => <span className="mono">{d.entry?.key}</span> },
            {
              id: 'reason',
              header: 'Reason',
              cell: (d) => <Badge tone="danger">{reasonLabel(d.entry?.reason ?? 0)}</Badge>,
            },
            { id: 'first-error', header: 'First error', cell: (d) => d.entry?.errors[0] ?? '—' },
            {
              id: 'version',
              header: 'Version',
              numeric: true,
              cell: (d) => d.entry?.schemaVersion ?? 0,
            },
            {
              id: 'at',
              header: 'Set aside',
              cell: (d) => <Time value={d.entry?.deadLetteredAt} />,
            },
            {
              id: 'actions',
              header: 'Actions',
              cell: (d) => (
                <span className="schema-actions">
                  <Button
                    variant="ghost"
                    aria-label={`View dead letter ${d.entry?.key ?? ''}`}
                    onClick={() => onView(d)}
                  >
                    View
                  </Button>
                  <GuardedButton
                    variant="ghost"
                    aria-label={`Discard dead letter ${d.entry?.key ?? ''}`}
                    allowed={discard.allowed}
                    reason={discard.reason}
                    onClick={() => onDiscard(d)}
                  >
                    Discard
                  </GuardedButton>
                </span>
              ),
            },
          ]}
          rows={rows}
          rowKey={(d) => String(d.deadLetterId)}
          empty={
            <EmptyState title={page > 0 ? 'No dead letters on this page' : 'No dead letters'} />
          }
        />
      )}
      <nav className="schema-pager" aria-label="Dead-letter pages">
        <Button disabled={page === 0} onClick={() => onPage(-1)}>
          Previous page
        </Button>
        <span>
          Page {page + 1}
          {query.isFetching && rows.length > 0 ? ' (reading…)' : ''}
        </span>
        {/* While the next page loads the previous one stays shown; its token would repeat it. */}
        <Button
          disabled={!query.data?.nextPageToken || query.isPlaceholderData}
          onClick={() => onPage(1)}
        >
          Next page
        </Button>
      </nav>
    </div>
  );
}
