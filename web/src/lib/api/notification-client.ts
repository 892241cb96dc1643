import { createClient, type Client } from '@connectrpc/connect';
// The package index does not re-export the notifications module; its generated module directly.
import { NotificationService } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { useMemo } from 'react';
import { useServices } from '../services';

export type NotificationClient = Client<typeof NotificationService>;

/**
 * NotificationService (channels, their delivery log, the alerts that would fire now; not in the
 * specs) on the API layer's transport, so it carries the same credential and tenant headers. In
 * lib: the notifications page and the dashboard's alerts both read it.
 */
export function useNotificationClient(): NotificationClient {
  const { transport } = useServices().api;
  return useMemo(() => createClient(NotificationService, transport), [transport]);
}
