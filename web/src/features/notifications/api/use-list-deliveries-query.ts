import { NotificationService } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useNotificationClient } from '../../../lib/api/notification-client';
import { FAST_POLL_MS, SLOW_POLL_MS } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';
import { isDeliveryOpen } from '../utils/notification-words';

/** Deliveries per page of the log; "Load more" fetches the next page. */
export const DELIVERY_PAGE_SIZE = 20;

/**
 * One channel's delivery log, newest first, page after page (keyset tokens). Polled fast while a
 * shown delivery is waiting or retrying, slowly otherwise; a poll refetches the loaded pages.
 */
export function useListDeliveriesQuery(channelId: string) {
  const client = useNotificationClient();
  const request = { channelId, pageSize: DELIVERY_PAGE_SIZE };
  return useInfiniteQuery({
    queryKey: rpcKey(NotificationService.method.listDeliveries, request),
    queryFn: ({ pageParam, signal }) =>
      client.listDeliveries({ ...request, pageToken: pageParam }, { signal }),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextPageToken || undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) =>
        page.deliveries.some((delivery) => isDeliveryOpen(delivery.state)),
      )
        ? FAST_POLL_MS
        : SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
