import {
  type ChannelWithSecret,
  type NotificationChannel,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { useId, useState, type SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { ExplainedError } from '../../../components/ui/error-text';
import { useCreateChannelMutation, useUpdateChannelMutation } from '../api/use-channel-mutations';
import {
  EMPTY_DRAFT,
  draftFromChannel,
  parseChannelDraft,
  type ChannelDraft,
} from '../utils/channel-draft';
import { explainChannelError } from '../utils/channel-errors';
import { ChannelTargetFields } from './channel-target-fields';
import { EventChoices } from './event-choices';

export interface ChannelFormDialogProps {
  /** The channel to edit; none to create one. */
  channel?: NotificationChannel | undefined;
  onClose: () => void;
  /** A new channel, with its secret when it is a webhook (shown once, by the caller). */
  onCreated: (created: ChannelWithSecret) => void;
  onSaved: (channel: NotificationChannel) => void;
}

/**
 * Create or edit a channel: its name, where it sends (a webhook URL or email addresses) and the
 * events it is told about. Checked here before sending; the server checks the rest (a URL that
 * resolves to a private address) and its refusal shows above the buttons.
 */
export function ChannelFormDialog({
  channel,
  onClose,
  onCreated,
  onSaved,
}: ChannelFormDialogProps) {
  const formId = useId();
  const create = useCreateChannelMutation();
  const update = useUpdateChannelMutation();
  const [draft, setDraft] = useState<ChannelDraft>(() =>
    channel ? draftFromChannel(channel) : EMPTY_DRAFT,
  );
  const [touched, setTouched] = useState(false);
  const parsed = parseChannelDraft(draft);
  const errors = touched && !parsed.ok ? parsed.errors : {};
  const pending = create.isPending || update.isPending;
  const failure = channel ? update.error : create.error;

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!parsed.ok) return;
    if (channel) {
      update.mutate(
        { channelId: channel.channelId, etag: channel.etag, fields: parsed.fields },
        { onSuccess: onSaved },
      );
    } else {
      create.mutate(parsed.fields, { onSuccess: onCreated });
    }
  };

  return (
    <Dialog
      open
      title={channel ? `Edit channel ${channel.name}` : 'New notification channel'}
      onClose={onClose}
      footer={
        <DialogActions
          dismiss={
            <Button onClick={onClose} disabled={pending}>
              Cancel
            </Button>
          }
          primary={
            <Button type="submit" form={formId} variant="primary" busy={pending}>
              {channel ? 'Save channel' : 'Create channel'}
            </Button>
          }
        />
      }
    >
      <form
        id={formId}
        className="stack channel-form"
        onSubmit={(event) => submit(event)}
        noValidate
      >
        <ChannelTargetFields
          draft={draft}
          errors={errors}
          kindLocked={channel !== undefined}
          onChange={setDraft}
        />
        <EventChoices draft={draft} errors={errors} onChange={setDraft} />
        {failure && (
          <div role="alert" className="error-banner">
            <ExplainedError
              explanation={explainChannelError(failure, channel !== undefined)}
              lead={channel ? 'The channel was not saved:' : 'The channel was not created:'}
            />
          </div>
        )}
      </form>
    </Dialog>
  );
}
