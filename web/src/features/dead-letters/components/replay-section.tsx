import {
  DeadLetterReplayOutcome,
  type DeadLetterRecord,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { useState } from 'react';
import { Field } from '../../../components/ui/field';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { formatCount } from '../../../lib/format';
import { useRoles } from '../../../lib/identity/use-roles';
import { useCountPendingDeadLettersQuery } from '../api/use-dead-letter-discard';
import { useCountDeadLettersQuery } from '../../../lib/schema/use-count-dead-letters-query';
import { useListDeadLettersQuery } from '../api/use-list-dead-letters-query';
import { BulkReplay } from './bulk-replay';
import { DeadLetterTable } from './dead-letter-table';
import { ReplayDialog } from './replay-dialog';
import { SchemaSection } from '../../../components/schema/schema-section';

/** Dead letters with their ids and replay history: fix one and replay it, or replay them all. */
export function ReplaySection({ treeId }: { treeId: string }) {
  const [keyPrefix, setKeyPrefix] = useState('');
  const [includeReplayed, setIncludeReplayed] = useState(false);
  const [tokens, setTokens] = useState<string[]>([]);
  const pageToken = tokens.at(-1) ?? '';
  const query = useListDeadLettersQuery(treeId, {
    pageToken,
    includeReplayed,
    filter: { keyPrefix },
  });
  const [open, setOpen] = useState<DeadLetterRecord | null>(null);
  // The same count as the Dead letters section (CountDeadLetters); under a prefix, the server's
  // count of that selection: both apply the server's one definition of a pending letter.
  const total = useCountDeadLettersQuery(treeId);
  const underPrefix = useCountPendingDeadLettersQuery(
    treeId,
    { selection: { case: 'filter', value: { keyPrefix } } },
    { enabled: keyPrefix !== '' },
  );
  const pending = keyPrefix === '' ? total.data : underPrefix.data;
  const roles = useRoles();
  const canReplay = roles.atLeast('operator');

  return (
    <SchemaSection id="replay" title="Fix and replay">
      <p className="muted">
        A fixed value goes through the write guard like any write: if the policy in force accepts
        it, it is written with a new sequence and the letter is kept as replayed (who and when).
      </p>
      <p>
        <strong data-testid="replay-pending-count">
          {pending === undefined ? '…' : formatCount(pending)}
        </strong>{' '}
        pending dead letters{keyPrefix ? ` under "${keyPrefix}"` : ''} to fix.
      </p>
      <div className="schema-form-row">
        <Field label="Key prefix">
          {(control) => (
            <input
              {...control}
              className="input"
              value={keyPrefix}
              onChange={(event) => {
                setKeyPrefix(event.target.value);
                setTokens([]);
              }}
            />
          )}
        </Field>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={includeReplayed}
            onChange={(event) => {
              setIncludeReplayed(event.target.checked);
              setTokens([]);
            }}
          />{' '}
          Show replayed letters
        </label>
      </div>
      <BulkReplay treeId={treeId} keyPrefix={keyPrefix} />
      <DeadLetterTable
        query={query}
        page={tokens.length}
        onPage={(delta) => {
          const next = query.data?.nextPageToken;
          if (delta === -1) setTokens((t) => t.slice(0, -1));
          else if (next) setTokens((t) => [...t, next]);
        }}
        title="Dead letters to fix"
        withReplay
        actions={(d) =>
          d.replayOutcome === DeadLetterReplayOutcome.WRITTEN ? (
            '—'
          ) : (
            <GuardedButton
              variant="ghost"
              aria-label={`Fix and replay ${d.entry?.key ?? ''}`}
              allowed={canReplay}
              reason={roles.needs('operator')}
              onClick={() => setOpen(d)}
            >
              Fix and replay
            </GuardedButton>
          )
        }
      />
      <ReplayDialog treeId={treeId} letter={open} onClose={() => setOpen(null)} />
    </SchemaSection>
  );
}
