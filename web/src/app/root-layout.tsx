import { useSyncExternalStore } from 'react';
import { Outlet } from 'react-router';
import { Toasts } from '../components/ui/toasts';
import { useServices } from '../lib/services';
import { ConnectionBanner } from './connection-banner';

/** Every route, signed in or not: the server's reachability, the page and the toasts. */
export function RootLayout() {
  const { toasts } = useServices();
  const list = useSyncExternalStore(toasts.subscribe, toasts.getSnapshot);
  return (
    <>
      <ConnectionBanner />
      <Outlet />
      <Toasts toasts={list} onDismiss={toasts.dismiss} />
    </>
  );
}
