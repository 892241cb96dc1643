import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { createApi, grpcWebTransport, type TransportFactory } from '../lib/api/create-api';
import { ConnectivityStore } from '../lib/connectivity/connectivity-store';
import { TrackedOperationsStore } from '../lib/operations/tracked-operations-store';
import { createQueryClient } from '../lib/query-client';
import type { AppServices } from '../lib/services';
import { SessionStore } from '../lib/session/session-store';
import { clearSessionStorage } from '../lib/storage';
import { ToastStore } from '../lib/toast/toast-store';

/**
 * Wires the console's services. Tests pass connect's router transport instead of gRPC-Web and
 * get the same interceptors, stores and query client as the browser.
 */
export function createServices(
  factory: TransportFactory = grpcWebTransport,
  options: { queryClient?: (toasts: ToastStore) => QueryClient } = {},
): { services: AppServices; queryClient: QueryClient } {
  const toasts = new ToastStore();
  const queryClient = (options.queryClient ?? createQueryClient)(toasts);
  const tracked = new TrackedOperationsStore();
  const session = new SessionStore(() => {
    // Nothing of the ended session may remain: token, oidc-client-ts's user, the tray's ids,
    // and any data the cache holds for that caller.
    clearSessionStorage();
    tracked.clear();
    queryClient.clear();
  });
  const connectivity = new ConnectivityStore();
  const api = createApi(session, factory, connectivity);
  // While unreachable, the store tries the server with its cheapest call (anonymous, no data).
  connectivity.setProbe(() => api.backup.getAuthScheme({}));
  // React Query's own notion of "offline": queries stop fetching and keep their data (no error
  // replaces it, no retry counts down), and when it is back every query on screen refetches.
  connectivity.subscribe(() => onlineManager.setOnline(connectivity.reachable));
  return { services: { session, api, toasts, tracked, connectivity }, queryClient };
}
