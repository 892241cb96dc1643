import { NotificationService } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { useQuery } from '@tanstack/react-query';
import { useNotificationClient } from '../../../lib/api/notification-client';
import { SLOW_POLL_MS } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';

/**
 * The tenant's channels (ListChannels), slow-polled: the server pauses a failing channel by
 * itself, and the banner saying why should appear without a reload.
 */
export function useListChannelsQuery() {
  const client = useNotificationClient();
  return useQuery({
    queryKey: rpcKey(NotificationService.method.listChannels, {}),
    queryFn: async ({ signal }) => (await client.listChannels({}, { signal })).channels,
    refetchInterval: SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
