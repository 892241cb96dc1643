import type {
  ChannelWithSecret,
  NotificationChannel,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorText, ExplainedError } from '../../../components/ui/error-text';
import { useActiveTenant, useToast } from '../../../lib/services';
import { counted } from '../../../lib/words';
import {
  useDeleteChannelMutation,
  useRotateChannelSecretMutation,
} from '../api/use-channel-mutations';
import { explainChannelError } from '../utils/channel-errors';
import { secretHintText, targetText } from '../utils/channel-summary';

/**
 * Delete a channel after saying what goes with it: where it stops sending and how many deliveries
 * its log loses. Sends the etag read; a channel changed meanwhile is refused in words.
 */
export function DeleteChannelConfirm({
  channel,
  onClose,
}: {
  channel: NotificationChannel;
  onClose: () => void;
}) {
  const tenant = useActiveTenant();
  const toast = useToast();
  const remove = useDeleteChannelMutation();
  const confirm = () =>
    remove.mutate(
      { channelId: channel.channelId, etag: channel.etag },
      {
        onSuccess: (answer) => {
          toast({
            tone: 'success',
            title: `Channel ${channel.name} deleted`,
            detail: `Its log of ${counted(answer.deletedDeliveries, 'delivery', 'deliveries')} went with it.`,
          });
          onClose();
        },
      },
    );
  return (
    <ConfirmDialog
      open
      title={`Delete channel ${channel.name}?`}
      confirmLabel="Delete channel"
      tone="danger"
      busy={remove.isPending}
      onConfirm={confirm}
      onCancel={onClose}
    >
      <p>
        Tenant <strong>{tenant}</strong> stops sending to {targetText(channel)}.
      </p>
      <p>
        {channel.deliveryCount > 0n ? (
          <>
            Its delivery log loses{' '}
            <strong>{counted(channel.deliveryCount, 'delivery', 'deliveries')}</strong>, with their
            response codes. This cannot be undone.
          </>
        ) : (
          'Its delivery log is empty, so no delivery is lost. This cannot be undone.'
        )}
      </p>
      {remove.error && (
        <div role="alert" className="error-banner">
          <ExplainedError
            explanation={explainChannelError(remove.error, true)}
            lead="The channel was not deleted:"
          />
        </div>
      )}
    </ConfirmDialog>
  );
}

/** Rotate a webhook's secret after saying that the receiver needs the new one at once. */
export function RotateSecretConfirm({
  channel,
  onClose,
  onRotated,
}: {
  channel: NotificationChannel;
  onClose: () => void;
  onRotated: (rotated: ChannelWithSecret) => void;
}) {
  const rotate = useRotateChannelSecretMutation();
  return (
    <ConfirmDialog
      open
      title={`Rotate the signing secret of ${channel.name}?`}
      confirmLabel="Rotate secret"
      tone="danger"
      busy={rotate.isPending}
      onConfirm={() => rotate.mutate(channel.channelId, { onSuccess: onRotated })}
      onCancel={onClose}
    >
      <p>
        Messages are signed with a new secret from now on, and the current one
        {channel.secretHint ? <> (starting {secretHintText(channel.secretHint)})</> : null} stops
        verifying: your receiver refuses them until it has the new secret.
      </p>
      <p>The new secret is shown once, right after this.</p>
      {rotate.error && (
        <div role="alert" className="error-banner">
          <ErrorText error={rotate.error} lead="The secret was not rotated:" />
        </div>
      )}
    </ConfirmDialog>
  );
}
