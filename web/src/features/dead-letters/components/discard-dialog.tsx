import { Code, ConnectError } from '@connectrpc/connect';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { overLengthError } from '../../../lib/forms/length-limit';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Field } from '../../../components/ui/field';
import { formatCount } from '../../../lib/format';
import { useActiveTenant, useToast } from '../../../lib/services';
import { describeFilter, toWireFilter, type LetterFilter } from '../utils/dead-letter-filter';
import {
  useDiscardDeadLettersMutation,
  usePendingDeadLetterSetQuery,
  type DiscardSelection,
} from '../api/use-dead-letter-discard';

/** What the user asked to discard; the confirm counts it itself. */
export type DiscardRequest =
  | { kind: 'one'; deadLetterId: bigint; key: string }
  | { kind: 'filtered'; filter: LetterFilter }
  | { kind: 'all' };

const NOTE_MAX = 500;
const ALL: DiscardSelection = { selection: { case: 'all', value: true } };

/**
 * The confirm of a discard, naming the tree, the tenant, the selection and its count. The count
 * is CountPendingDeadLetters of exactly this selection, and the discard sends it back with its
 * fingerprint: the server discards nothing when the set moved since (even to another set of the
 * same size), and the refreshed count is then what the admin confirms next.
 */
export function DiscardDialog({
  treeId,
  request,
  onClose,
}: {
  treeId: string;
  request: DiscardRequest | null;
  onClose: () => void;
}) {
  const tenant = useActiveTenant();
  const toast = useToast();
  const discard = useDiscardDeadLettersMutation(treeId);
  const [note, setNote] = useState('');
  const close = () => {
    discard.reset();
    setNote('');
    onClose();
  };
  const selection = request === null ? ALL : selectionOf(request);
  const pending = usePendingDeadLetterSetQuery(treeId, selection, { enabled: request !== null });
  const confirmed = pending.data;
  const count = confirmed?.count ?? 0n;
  const letters = count === 1n ? 'dead letter' : 'dead letters';
  const noteError = overLengthError(note, NOTE_MAX, 'A note');
  const changed =
    discard.error !== null && ConnectError.from(discard.error).code === Code.FailedPrecondition;

  return (
    <ConfirmDialog
      open={request !== null}
      title={request ? titleOf(request, confirmed?.count) : 'Discard dead letters?'}
      confirmLabel={
        confirmed === undefined ? 'Counting…' : `Discard ${formatCount(count)} ${letters}`
      }
      tone="danger"
      busy={discard.isPending}
      // Only what was counted can be confirmed: not while a new count is on its way.
      confirmDisabled={
        confirmed === undefined || pending.isFetching || count === 0n || noteError !== undefined
      }
      onCancel={close}
      onConfirm={() => {
        if (!request || !confirmed) return;
        discard.mutate(
          { selection, confirmed, note },
          {
            onSuccess: (answer) => {
              toast({
                tone: 'success',
                title: `Discarded ${formatCount(answer.discardedCount)} ${letters} of ${treeId}`,
              });
              close();
            },
          },
        );
      }}
    >
      {request && (
        <div className="stack">
          {pending.isError && <ErrorBanner title="Counting failed" error={pending.error} />}
          {confirmed?.count === 0n && (
            <p data-testid="discard-nothing">
              The selection takes no pending dead letter now: there is nothing to discard.
            </p>
          )}
          <p>
            {whatOf(request, count)} of tree <strong>{treeId}</strong> in tenant{' '}
            <strong>{tenant}</strong> {count === 1n ? 'stops' : 'stop'} being pending: no listing,
            count or replay takes {count === 1n ? 'it' : 'them'} any more. Each is kept with who
            discarded it, when and the note below for the audit retention period, then deleted.
          </p>
          <Field
            label="Note (optional)"
            hint={`Why; kept with the letters and in the audit trail.`}
            error={noteError ?? null}
          >
            {(control) => (
              <input
                {...control}
                className="input"
                value={note}
                onChange={(event) => setNote(event.target.value)}
              />
            )}
          </Field>
          {discard.error !== null && (
            <ErrorBanner
              title={
                changed
                  ? 'The dead letters changed since they were counted: the count above is now up to date, check it and confirm again'
                  : 'Discarding failed'
              }
              error={discard.error}
            />
          )}
        </div>
      )}
    </ConfirmDialog>
  );
}

function titleOf(request: DiscardRequest, count: bigint | undefined): string {
  if (request.kind === 'one') return `Discard the dead letter of ${request.key}?`;
  const n = count === undefined ? '…' : formatCount(count);
  return request.kind === 'all' ? `Discard all ${n} dead letters?` : `Discard ${n} dead letters?`;
}

function whatOf(request: DiscardRequest, count: bigint): string {
  if (request.kind === 'one') {
    return `Dead letter ${String(request.deadLetterId)} (key ${request.key})`;
  }
  const n = formatCount(count);
  return request.kind === 'all'
    ? `All ${n} pending dead letters`
    : `The ${n} pending dead letters ${describeFilter(request.filter)}`;
}

function selectionOf(request: DiscardRequest): DiscardSelection {
  switch (request.kind) {
    case 'one':
      return { selection: { case: 'deadLetterId', value: request.deadLetterId } };
    case 'filtered':
      return { selection: { case: 'filter', value: toWireFilter(request.filter) } };
    case 'all':
      return { selection: { case: 'all', value: true } };
  }
}
