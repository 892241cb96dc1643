import type { DeadLetterRecord } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { formatCount } from '../../../lib/format';
import { useRoles } from '../../../lib/identity/use-roles';
import {
  NO_FILTER,
  isFiltered,
  toWireFilter,
  type LetterFilter,
} from '../utils/dead-letter-filter';
import { useCountPendingDeadLettersQuery } from '../api/use-dead-letter-discard';
import { useCountDeadLettersQuery } from '../../../lib/schema/use-count-dead-letters-query';
import { useListDeadLettersQuery } from '../api/use-list-dead-letters-query';
import { useInvalidateDeadLetterViews } from '../hooks/use-invalidate-dead-letter-views';
import { DeadLetterDialog } from './dead-letter-dialog';
import { DeadLetterFilters } from './dead-letter-filters';
import { DeadLetterTable } from './dead-letter-table';
import { DiscardDialog, type DiscardRequest } from './discard-dialog';
import { SchemaSection } from '../../../components/schema/schema-section';

type Asked = { kind: 'one'; letter: DeadLetterRecord } | { kind: 'filtered' } | { kind: 'all' };

/**
 * The tree's pending dead letters: the count, a filter, the letters a page at a time with each
 * one's detail, and discard (one, the filtered set, or all). The rows come from ListDeadLetters,
 * the same query family as Fix and replay, so a replay or a discard refreshes both sections.
 */
export function DeadLettersSection({ treeId }: { treeId: string }) {
  const count = useCountDeadLettersQuery(treeId);
  const refresh = useInvalidateDeadLetterViews();
  const roles = useRoles();
  const discard = {
    allowed: roles.atLeast('operator'),
    reason: roles.needs('operator'),
  };
  const [filter, setFilter] = useState<LetterFilter>(NO_FILTER);
  const [tokens, setTokens] = useState<string[]>([]);
  const wireFilter = toWireFilter(filter);
  const filtered = isFiltered(filter);
  const letters = useListDeadLettersQuery(treeId, {
    pageToken: tokens.at(-1) ?? '',
    includeReplayed: false,
    filter: wireFilter,
  });
  const filteredCount = useCountPendingDeadLettersQuery(
    treeId,
    { selection: { case: 'filter', value: wireFilter } },
    { enabled: filtered },
  );
  const [viewing, setViewing] = useState<DeadLetterRecord | null>(null);
  const [asked, setAsked] = useState<Asked | null>(null);
  const total = count.data === undefined ? undefined : BigInt(count.data);

  return (
    <SchemaSection
      id="dead-letters"
      title="Dead letters"
      actions={<Button onClick={() => void refresh()}>Read again</Button>}
    >
      <p>
        {count.isPending ? (
          'Counting…'
        ) : count.isError ? (
          <span className="field__error">Count failed</span>
        ) : (
          <strong data-testid="dead-letter-count">{formatCount(count.data)}</strong>
        )}{' '}
        pending values set aside instead of written (oldest first).
      </p>
      <DeadLetterFilters
        filter={filter}
        onChange={(next) => {
          setFilter(next);
          setTokens([]);
        }}
      />
      <div className="schema-actions">
        {filtered && (
          <GuardedButton
            {...discard}
            disabled={!filteredCount.data}
            onClick={() => setAsked({ kind: 'filtered' })}
          >
            Discard filtered (
            {filteredCount.data === undefined ? '…' : formatCount(filteredCount.data)})
          </GuardedButton>
        )}
        <GuardedButton {...discard} disabled={!total} onClick={() => setAsked({ kind: 'all' })}>
          Discard all ({total === undefined ? '…' : formatCount(total)})
        </GuardedButton>
      </div>
      <DeadLetterTable
        query={letters}
        page={tokens.length}
        onPage={(delta) => {
          const next = letters.data?.nextPageToken;
          if (delta === -1) setTokens((t) => t.slice(0, -1));
          else if (next) setTokens((t) => [...t, next]);
        }}
        title="Dead letters"
        actions={(letter) => (
          <>
            <Button
              variant="ghost"
              aria-label={`View dead letter ${letter.entry?.key ?? ''}`}
              onClick={() => setViewing(letter)}
            >
              View
            </Button>
            <GuardedButton
              variant="ghost"
              aria-label={`Discard dead letter ${letter.entry?.key ?? ''}`}
              {...discard}
              onClick={() => setAsked({ kind: 'one', letter })}
            >
              Discard
            </GuardedButton>
          </>
        )}
      />
      <DeadLetterDialog entry={viewing?.entry ?? null} onClose={() => setViewing(null)} />
      <DiscardDialog
        treeId={treeId}
        request={requestOf(asked, filter)}
        onClose={() => setAsked(null)}
      />
    </SchemaSection>
  );
}

/** The open confirm's selection (the confirm counts it, and sends that count's fingerprint). */
function requestOf(asked: Asked | null, filter: LetterFilter): DiscardRequest | null {
  if (asked === null) return null;
  if (asked.kind === 'one') {
    return {
      kind: 'one',
      deadLetterId: asked.letter.deadLetterId,
      key: asked.letter.entry?.key ?? '',
    };
  }
  return asked.kind === 'filtered' ? { kind: 'filtered', filter } : { kind: 'all' };
}
