import { StoreSchemaApiOperation, type StoreSchemaDeadLetterEntry } from '@store/contract';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';
import { Table } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import type { Capabilities } from '../../../lib/capabilities/capabilities';
import { formatCount } from '../../../lib/format';
import { reasonLabel } from '../api/dead-letter-reader';
import { useCountDeadLettersQuery, useDeadLetterStream } from '../hooks/use-dead-letters';
import { DeadLetterDialog } from './dead-letter-dialog';
import { SchemaSection } from './schema-section';

/** Rows per page of the dead-letter table. */
export const DEAD_LETTER_PAGE_SIZE = 20;
/** URL search param of the dead-letter page (1-based). */
const PAGE_PARAM = 'deadLetterPage';

/** The tree's dead letters: count, the streamed rows a page at a time, and each one's detail. */
export function DeadLettersSection({
  treeId,
  caps,
}: {
  treeId: string;
  caps: Capabilities<StoreSchemaApiOperation>;
}) {
  const count = useCountDeadLettersQuery(treeId);
  const [generation, setGeneration] = useState(0);
  const canStream = caps.can(StoreSchemaApiOperation.STREAM_DEAD_LETTERS);
  return (
    <SchemaSection
      id="dead-letters"
      title="Dead letters"
      actions={
        <Button
          onClick={() => {
            setGeneration((g) => g + 1);
            void count.refetch();
          }}
        >
          Read again
        </Button>
      }
    >
      <p>
        {count.isPending ? (
          'Counting…'
        ) : count.isError ? (
          <span className="field__error">Count failed</span>
        ) : (
          <strong data-testid="dead-letter-count">{formatCount(count.data)}</strong>
        )}{' '}
        values set aside instead of written (oldest first).
      </p>
      {canStream ? (
        <DeadLetterTable key={`${treeId}:${generation}`} treeId={treeId} generation={generation} />
      ) : (
        <p className="muted">{caps.guard(StoreSchemaApiOperation.STREAM_DEAD_LETTERS).reason}</p>
      )}
    </SchemaSection>
  );
}

function DeadLetterTable({ treeId, generation }: { treeId: string; generation: number }) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get(PAGE_PARAM) ?? '1', 10) || 1);
  // One row past the page tells whether there is a next one, without reading further.
  const stream = useDeadLetterStream(treeId, page * DEAD_LETTER_PAGE_SIZE + 1, generation);
  const [open, setOpen] = useState<StoreSchemaDeadLetterEntry | null>(null);
  const first = (page - 1) * DEAD_LETTER_PAGE_SIZE;
  const rows = stream.rows.slice(first, first + DEAD_LETTER_PAGE_SIZE);
  const hasNext = stream.rows.length > first + DEAD_LETTER_PAGE_SIZE;

  const goTo = (next: number) =>
    setParams((current) => {
      const updated = new URLSearchParams(current);
      if (next <= 1) updated.delete(PAGE_PARAM);
      else updated.set(PAGE_PARAM, String(next));
      return updated;
    });

  return (
    <div className="stack">
      {stream.error ? (
        <ErrorBanner title="Reading dead letters failed" error={stream.error} />
      ) : null}
      {rows.length === 0 && stream.reading ? (
        <Spinner label="Reading dead letters…" />
      ) : (
        <Table
          caption={`Dead letters ${first + 1}–${first + rows.length}`}
          columns={[
            { id: 'key', header: 'Key', cell: (d) => <span className="mono">{d.key}</span> },
            {
              id: 'reason',
              header: 'Reason',
              cell: (d) => <Badge tone="danger">{reasonLabel(d.reason)}</Badge>,
            },
            { id: 'first-error', header: 'First error', cell: (d) => d.errors[0] ?? '—' },
            { id: 'version', header: 'Version', numeric: true, cell: (d) => d.schemaVersion },
            { id: 'at', header: 'Set aside', cell: (d) => <Time value={d.deadLetteredAt} /> },
            {
              id: 'view',
              header: 'Detail',
              cell: (d) => (
                <Button
                  variant="ghost"
                  aria-label={`View dead letter ${d.key}`}
                  onClick={() => setOpen(d)}
                >
                  View
                </Button>
              ),
            },
          ]}
          rows={rows}
          rowKey={(d) =>
            `${d.key}\u0000${String(d.deadLetteredAt?.seconds ?? 0)}\u0000${d.deadLetteredAt?.nanos ?? 0}`
          }
          empty={
            <EmptyState title={page > 1 ? 'No dead letters on this page' : 'No dead letters'} />
          }
        />
      )}
      <nav className="schema-pager" aria-label="Dead-letter pages">
        <Button disabled={page <= 1} onClick={() => goTo(page - 1)}>
          Previous page
        </Button>
        <span>
          Page {page}
          {stream.reading && rows.length > 0 ? ' (reading…)' : ''}
        </span>
        <Button disabled={!hasNext} onClick={() => goTo(page + 1)}>
          Next page
        </Button>
      </nav>
      <DeadLetterDialog entry={open} onClose={() => setOpen(null)} />
    </div>
  );
}
