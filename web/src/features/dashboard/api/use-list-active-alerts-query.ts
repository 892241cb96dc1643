import { NotificationService } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { useQuery } from '@tanstack/react-query';
import { useNotificationClient } from '../../../lib/api/notification-client';
import { SLOW_POLL_MS } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';

/**
 * The alerts the shipped Prometheus rules would fire now (ListActiveAlerts), one request per
 * slow tick like the dashboard's other sections; the server evaluates the same conditions.
 */
export function useListActiveAlertsQuery() {
  const client = useNotificationClient();
  return useQuery({
    queryKey: rpcKey(NotificationService.method.listActiveAlerts, {}),
    queryFn: ({ signal }) => client.listActiveAlerts({}, { signal }),
    refetchInterval: SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
