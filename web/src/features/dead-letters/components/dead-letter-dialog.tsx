import type { StoreSchemaDeadLetterEntry } from '@store/contract';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { Dialog } from '../../../components/ui/dialog';
import { Time } from '../../../components/ui/time';
import { paths } from '../../../lib/paths';
import { reasonLabel } from '../utils/dead-letter-reason';
import { prettyJson } from '../../../lib/json-syntax';

/** One dead letter: its value as formatted JSON and every error the server recorded. */
export function DeadLetterDialog({
  entry,
  onClose,
}: {
  entry: StoreSchemaDeadLetterEntry | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={entry !== null}
      title={entry ? `Dead letter ${entry.key}` : 'Dead letter'}
      onClose={onClose}
      footer={<DialogActions dismiss={<Button onClick={onClose}>Close</Button>} />}
    >
      {entry && (
        <div className="stack">
          <dl className="facts">
            <dt>Reason</dt>
            <dd>{reasonLabel(entry.reason)}</dd>
            <dt>Schema version</dt>
            <dd>{entry.schemaVersion}</dd>
            <dt>Set aside</dt>
            <dd>
              <Time value={entry.deadLetteredAt} />
            </dd>
            {entry.sourceOperationId && (
              <>
                <dt>By operation</dt>
                <dd>
                  <Link to={paths.operation(entry.sourceOperationId)} className="mono">
                    {entry.sourceOperationId}
                  </Link>
                </dd>
              </>
            )}
          </dl>
          <h3 className="schema-subtitle">Errors</h3>
          <ul className="schema-errors">
            {entry.errors.map((error, index) => (
              <li key={index}>{error}</li>
            ))}
          </ul>
          <h3 className="schema-subtitle">Value</h3>
          <pre className="code-block" tabIndex={0} aria-label="Value">
            {prettyJson(entry.valueJson)}
          </pre>
        </div>
      )}
    </Dialog>
  );
}
