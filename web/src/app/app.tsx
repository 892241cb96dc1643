import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createServices } from './create-services';
import { AppProviders } from './providers';
import { appRoutes } from './routes';

/** The console: services, query client and the browser router, each made once. */
export function App() {
  const [{ services, queryClient }] = useState(() => createServices());
  const [router] = useState(() => createBrowserRouter(appRoutes));
  return (
    <AppProviders services={services} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
