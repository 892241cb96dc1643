import { Link } from 'react-router';
import { Term } from '../../../components/ui/term';
import { paths } from '../../../lib/paths';
import { deadLetterReasonWords } from '../../../lib/words';
import type { PutOutcome } from '../api/put-outcome';

type DeadLettered = Extract<PutOutcome, { kind: 'dead-lettered' }>;

/**
 * A put the tree's ENFORCE policy refused: the entry was not changed and the value was kept as a
 * dead letter. Shows the policy's errors from that dead letter when they could be read.
 */
export function DeadLetterOutcome({ treeId, outcome }: { treeId: string; outcome: DeadLettered }) {
  const errors = outcome.deadLetter?.errors ?? [];
  return (
    <div className="panel panel--danger dead-letter-outcome" role="alert">
      <p className="panel__title">Dead-lettered: the schema policy refused this value</p>
      <p>
        The entry <strong className="mono">{outcome.key}</strong> in tree <strong>{treeId}</strong>{' '}
        was <strong>not</strong> changed. The value was kept in the tree&apos;s dead letters (reason{' '}
        <Term term={deadLetterReasonWords(outcome.reason)} />
        ).
      </p>
      {errors.length > 0 && (
        <>
          <p>What the policy reported:</p>
          <ul className="dead-letter-outcome__errors">
            {errors.map((error, index) => (
              <li key={index} className="mono">
                {error}
              </li>
            ))}
          </ul>
        </>
      )}
      {outcome.lookupError && (
        <p className="muted">The policy&apos;s errors could not be read: {outcome.lookupError}</p>
      )}
      <p>
        Fix the value and put it again, or review it with the tree&apos;s other dead letters on the{' '}
        <Link to={`${paths.schemaTree(treeId)}#schema-dead-letters`}>Schema page</Link>.
      </p>
    </div>
  );
}
