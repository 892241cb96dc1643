import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ServicesContext, type AppServices } from '../lib/services';

/** Everything the pages read from context: the services and the query client. */
export function AppProviders({
  services,
  queryClient,
  children,
}: {
  services: AppServices;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <ServicesContext.Provider value={services}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ServicesContext.Provider>
  );
}
