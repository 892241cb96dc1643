import { useSyncExternalStore } from 'react';
import { Outlet } from 'react-router';
import { Toasts } from '../components/ui/toasts';
import { useServices } from '../lib/services';

/** Every route, signed in or not: the page and the toasts. */
export function RootLayout() {
  const { toasts } = useServices();
  const list = useSyncExternalStore(toasts.subscribe, toasts.getSnapshot);
  return (
    <>
      <Outlet />
      <Toasts toasts={list} onDismiss={toasts.dismiss} />
    </>
  );
}
