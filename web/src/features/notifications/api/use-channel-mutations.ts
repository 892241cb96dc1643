import { NotificationService } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNotificationClient } from '../../../lib/api/notification-client';
import { serviceKey } from '../../../lib/query-keys';
import type { ChannelFields } from '../utils/channel-draft';

/** A change of a channel changes the list and its log (a test send adds a delivery). */
function useInvalidateNotifications() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: serviceKey(NotificationService) });
}

// Each mutation below shows its refusal in words where it was asked (meta.silent): the form,
// the confirmation or the channel's card.

/** CreateChannel (admin): answers the channel and, for a webhook, its secret, shown once. */
export function useCreateChannelMutation() {
  const client = useNotificationClient();
  const invalidate = useInvalidateNotifications();
  return useMutation({
    mutationFn: (fields: ChannelFields) => client.createChannel(fields),
    meta: { silent: true },
    onSuccess: () => invalidate(),
  });
}

/** UpdateChannel (admin) with the etag read; a stale one changes nothing. */
export function useUpdateChannelMutation() {
  const client = useNotificationClient();
  const invalidate = useInvalidateNotifications();
  return useMutation({
    mutationFn: (input: { channelId: string; etag: string; fields: ChannelFields }) =>
      client.updateChannel({ channelId: input.channelId, etag: input.etag, ...input.fields }),
    meta: { silent: true },
    // A stale etag means the list is stale too: refresh it either way.
    onSettled: () => invalidate(),
  });
}

/** DeleteChannel (admin) with the etag read: the channel and its delivery log go. */
export function useDeleteChannelMutation() {
  const client = useNotificationClient();
  const invalidate = useInvalidateNotifications();
  return useMutation({
    mutationFn: (input: { channelId: string; etag: string }) => client.deleteChannel(input),
    meta: { silent: true },
    onSettled: () => invalidate(),
  });
}

/** RotateChannelSecret (admin): a new secret, shown once; the old one stops signing. */
export function useRotateChannelSecretMutation() {
  const client = useNotificationClient();
  const invalidate = useInvalidateNotifications();
  return useMutation({
    mutationFn: (channelId: string) => client.rotateChannelSecret({ channelId }),
    meta: { silent: true },
    onSuccess: () => invalidate(),
  });
}

/** ResumeChannel (admin): ends a pause; the failure count starts again from zero. */
export function useResumeChannelMutation() {
  const client = useNotificationClient();
  const invalidate = useInvalidateNotifications();
  return useMutation({
    mutationFn: (channelId: string) => client.resumeChannel({ channelId }),
    meta: { errorTitle: 'The channel was not resumed' },
    onSettled: () => invalidate(),
  });
}

/** SendTestNotification (admin): sends a test message now and answers with its delivery. */
export function useSendTestNotificationMutation() {
  const client = useNotificationClient();
  const invalidate = useInvalidateNotifications();
  return useMutation({
    mutationFn: (channelId: string) => client.sendTestNotification({ channelId }),
    meta: { silent: true },
    onSettled: () => invalidate(),
  });
}
