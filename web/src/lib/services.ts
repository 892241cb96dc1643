import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Api } from './api/create-api';
import type { Connectivity, ConnectivityStore } from './connectivity/connectivity-store';
import type { Session, SessionStore } from './session/session-store';
import type { TrackedOperationsStore } from './operations/tracked-operations-store';
import type { ToastStore, ToastInput } from './toast/toast-store';

/** Everything the console shares outside React Query: built once in app/, injected by tests. */
export interface AppServices {
  session: SessionStore;
  api: Api;
  toasts: ToastStore;
  tracked: TrackedOperationsStore;
  /** Whether the server answers; the banner and the progress of running work read it. */
  connectivity: ConnectivityStore;
}

export const ServicesContext = createContext<AppServices | null>(null);

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices needs <ServicesContext.Provider> (app/providers)');
  return services;
}

/** The API layer: typed backup and schema clients, data and identity clients. */
export function useApi(): Api {
  return useServices().api;
}

/** The current session (null when signed out), re-rendering when it changes. */
export function useSession(): Session | null {
  const { session } = useServices();
  return useSyncExternalStore(session.subscribe, session.getSnapshot).session;
}

/** The tenant calls act in; every signed-in page has one (sign-in stores WhoAmI's answer). */
export function useActiveTenant(): string {
  return useSession()?.tenant ?? '';
}

/** Pushes a toast: `toast({ tone: 'success', title: 'Backup started' })`. */
export function useToast(): (toast: ToastInput) => number {
  return useServices().toasts.push;
}

const ALWAYS_REACHABLE: Connectivity = { unreachableSince: null, nextTryAt: null };
const noSubscription = () => () => undefined;

/**
 * Whether the server answers, re-rendering when that changes. Safe outside the providers (a
 * component rendered alone in a test): there, the server counts as reachable.
 */
export function useConnectivity(): Connectivity {
  const store = useContext(ServicesContext)?.connectivity;
  return useSyncExternalStore(
    store?.subscribe ?? noSubscription,
    store?.getSnapshot ?? (() => ALWAYS_REACHABLE),
  );
}
