import { ErrorText } from '../../../components/ui/error-text';
import {
  DeadLetterReplayOutcome,
  type DeadLetterRecord,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { Dialog } from '../../../components/ui/dialog';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { useRoles } from '../../../lib/identity/use-roles';
import { useToast } from '../../../lib/services';
import { reasonLabel } from '../utils/dead-letter-reason';
import { checkJson, formatSyntaxError, prettyJson } from '../../../lib/json-syntax';
import { PolicyVerdict } from '../../../components/schema/policy-verdict';
import { useValidateValueQuery } from '../../../lib/schema/use-validate-value-query';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useReplayDeadLetterMutation } from '../api/use-dead-letter-replay';
import { JsonTextField } from '../../../components/schema/json-text-field';

/** Pause after the last keystroke before the value is checked against the policy. */
const VALIDATE_DELAY_MS = 250;

/**
 * Fix a dead letter's value and replay it through the write guard. The errors against the
 * policy in force are shown live, from the server's own check (ValidateValue): the same Ajv
 * setup the write guard uses, so the editor never disagrees with the replay.
 */
export function ReplayDialog({
  treeId,
  letter,
  onClose,
}: {
  treeId: string;
  letter: DeadLetterRecord | null;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={letter !== null}
      title={letter ? `Fix and replay ${letter.entry?.key ?? ''}` : 'Fix and replay'}
      onClose={onClose}
    >
      {letter && (
        <ReplayForm
          key={String(letter.deadLetterId)}
          treeId={treeId}
          letter={letter}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}

function ReplayForm({
  treeId,
  letter,
  onClose,
}: {
  treeId: string;
  letter: DeadLetterRecord;
  onClose: () => void;
}) {
  const entry = letter.entry;
  const [text, setText] = useState(() =>
    prettyJson(letter.replayedValueJson ?? entry?.valueJson ?? 'null'),
  );
  const syntax = checkJson(text);
  const debounced = useDebouncedValue(
    syntax.ok ? JSON.stringify(syntax.value) : null,
    VALIDATE_DELAY_MS,
  );
  const validation = useValidateValueQuery(treeId, debounced);
  const replay = useReplayDeadLetterMutation(treeId);
  const roles = useRoles();
  const toast = useToast();
  const outcome = replay.data?.deadLetter;

  return (
    <form
      className="stack"
      aria-label="Fix and replay"
      onSubmit={(event) => {
        event.preventDefault();
        if (!syntax.ok) return;
        replay.mutate(
          { deadLetterId: letter.deadLetterId, valueJson: text },
          {
            onSuccess: ({ deadLetter }) => {
              if (deadLetter?.replayOutcome !== DeadLetterReplayOutcome.WRITTEN) return;
              toast({
                tone: 'success',
                title: `Replayed ${entry?.key ?? ''}`,
                detail: `Written with sequence ${String(deadLetter.replaySequence ?? '')}`,
              });
              onClose();
            },
          },
        );
      }}
    >
      <p className="muted">
        {entry ? reasonLabel(entry.reason) : ''}: {entry?.errors.join('; ')}
      </p>
      <JsonTextField
        label="Value"
        value={text}
        onChange={(next) => {
          setText(next);
          replay.reset();
        }}
        error={syntax.ok ? null : formatSyntaxError(syntax.error)}
        rows={10}
      />
      <div aria-live="polite" data-testid="replay-validation">
        {!syntax.ok ? null : validation.isError ? (
          <div className="field__error">
            <ErrorText error={validation.error} lead="Could not check the value:" />
          </div>
        ) : validation.data && debounced !== null ? (
          <PolicyVerdict data={validation.data} listTestId="replay-violations" />
        ) : (
          <p className="muted">Checking against the policy…</p>
        )}
      </div>
      {outcome?.replayOutcome === DeadLetterReplayOutcome.REFUSED && (
        <div className="field__error" role="alert">
          The write guard refused it again:
          <ul className="schema-errors">
            {outcome.replayErrors.map((error, index) => (
              <li key={index}>{error}</li>
            ))}
          </ul>
        </div>
      )}
      {replay.isError && (
        <div className="field__error" role="alert">
          <ErrorText error={replay.error} lead="Replay failed:" />
        </div>
      )}
      <DialogActions
        dismiss={
          <Button type="button" onClick={onClose}>
            Close
          </Button>
        }
        primary={
          <GuardedButton
            type="submit"
            variant="primary"
            busy={replay.isPending}
            disabled={!syntax.ok}
            allowed={roles.atLeast('operator')}
            reason={roles.needs('operator')}
          >
            Replay
          </GuardedButton>
        }
      />
    </form>
  );
}
