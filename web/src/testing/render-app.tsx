import type { ConnectRouter } from '@connectrpc/connect';
import { createRouterTransport } from '@connectrpc/connect';
import { render, type RenderResult } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createServices } from '../app/create-services';
import { AppProviders } from '../app/providers';
import { appRoutes } from '../app/routes';
import { createQueryClient } from '../lib/query-client';
import type { AppServices } from '../lib/services';
import { SESSION_STORAGE_KEY, type Session } from '../lib/session/session-store';

/** A signed-in API-token session in tenant "acme". */
export const testSession: Session = {
  schemeId: 'bearer',
  token: 'secret-token-1',
  placement: { header: 'authorization', prefix: 'Bearer' },
  tenant: 'acme',
};

export interface TestApp {
  services: AppServices;
  queryClient: QueryClient;
}

/**
 * The console's services over connect's in-memory router transport (STYLE.md, Tests), with the
 * real interceptors and stores, and `retry: false` so a failure shows at once.
 */
export function createTestApp(
  routes: (router: ConnectRouter) => void,
  options: { session?: Session | null } = {},
): TestApp {
  // The session store reads sessionStorage when it is made, as after a reload.
  if (options.session) sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(options.session));
  return createServices(
    (interceptors) => createRouterTransport(routes, { transport: { interceptors } }),
    {
      queryClient: (toasts) => {
        const client = createQueryClient(toasts);
        const defaults = client.getDefaultOptions();
        client.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, retry: false } });
        return client;
      },
    },
  );
}

/** Providers only, for renderHook. */
export function wrapperFor(app: TestApp) {
  return function Wrapper({ children }: { children: ReactNode }) {
    return (
      <AppProviders services={app.services} queryClient={app.queryClient}>
        {children}
      </AppProviders>
    );
  };
}

/** The whole console at `path`, in a memory router. */
export function renderApp(
  app: TestApp,
  path = '/',
): RenderResult & { router: ReturnType<typeof createMemoryRouter> } {
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const result = render(
    <AppProviders services={app.services} queryClient={app.queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router };
}
