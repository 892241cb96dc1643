import {
  DeadLetterReplayOutcome,
  type DeadLetterRecord,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import type { ReactNode } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';
import { Table } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { reasonLabel } from '../utils/dead-letter-reason';
import type { useListDeadLettersQuery } from '../api/use-list-dead-letters-query';

/** Rows per page of the dead-letter table. */
export const DEAD_LETTER_PAGE_SIZE = 20;

export interface DeadLetterTableProps {
  query: ReturnType<typeof useListDeadLettersQuery>;
  /** 0-based page index. */
  page: number;
  onPage: (delta: 1 | -1) => void;
  /** What the table lists ("Dead letters", "Dead letters to fix"): its caption and pager. */
  title: string;
  /** The last column: what the section does with one letter (View and Discard, Fix and replay). */
  actions: (letter: DeadLetterRecord) => ReactNode;
  /**
   * Show each letter's replay (replayed by whom, refused again) where a pending letter shows its
   * first error: for a list that includes replayed letters.
   */
  withReplay?: boolean;
}

/**
 * One page of dead letters and its pager: the one table of both dead-letter sections (the pending
 * letters with View and Discard, and Fix and replay), so they read the same and change together.
 */
export function DeadLetterTable({
  query,
  page,
  onPage,
  title,
  actions,
  withReplay = false,
}: DeadLetterTableProps) {
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
          caption={`${title} ${first + 1}–${first + rows.length}`}
          columns={[
            { id: 'key', header: 'Key', cell: (d) => <span className="mono">{d.entry?.key}</span> },
            {
              id: 'reason',
              header: 'Reason',
              cell: (d) => <Badge tone="danger">{reasonLabel(d.entry?.reason ?? 0)}</Badge>,
            },
            withReplay
              ? { id: 'replay', header: 'Replay', cell: (d) => <ReplayState letter={d} /> }
              : { id: 'first-error', header: 'First error', cell: (d) => firstError(d) },
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
              cell: (d) => <span className="schema-actions">{actions(d)}</span>,
            },
          ]}
          rows={rows}
          rowKey={(d) => String(d.deadLetterId)}
          empty={
            <EmptyState
              title={page > 0 ? `No ${lower(title)} on this page` : `No ${lower(title)}`}
            />
          }
        />
      )}
      <nav className="schema-pager" aria-label={`${title}: pages`}>
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

const lower = (title: string) => title.charAt(0).toLowerCase() + title.slice(1);

function firstError(letter: DeadLetterRecord): string {
  return letter.entry?.errors[0] ?? '—';
}

/** Replayed (by whom, when), refused again (why), or still pending (its first error). */
function ReplayState({ letter }: { letter: DeadLetterRecord }) {
  if (letter.replayOutcome === DeadLetterReplayOutcome.WRITTEN) {
    return (
      <span>
        <Badge tone="success">Replayed</Badge> by {letter.replayedBy}{' '}
        <Time value={letter.replayedAt} />
      </span>
    );
  }
  if (letter.replayOutcome === DeadLetterReplayOutcome.REFUSED) {
    return (
      <span>
        <Badge tone="warning">Refused again</Badge> {letter.replayErrors[0] ?? ''}
      </span>
    );
  }
  return <span className="muted">{firstError(letter)}</span>;
}
