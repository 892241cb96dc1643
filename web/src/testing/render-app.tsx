import type { ConnectRouter, Interceptor } from '@connectrpc/connect';
import { createRouterTransport } from '@connectrpc/connect';
import { render, type RenderResult } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createServices } from '../app/create-services';
import { AppProviders } from '../app/providers';
import { appRoutes } from '../app/routes';
import { isNetworkFailure } from '../lib/connectivity/network-failure';
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
 * real interceptors and stores, and no retry of a failure the server answered, so it shows at once.
 */
export function createTestApp(
  routes: (router: ConnectRouter) => void,
  options: {
    session?: Session | null;
    /** Run after the app's own, next to the wire: a test's stand-in for the network. */
    network?: Interceptor[];
  } = {},
): TestApp {
  // The session store reads sessionStorage when it is made, as after a reload.
  if (options.session) sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(options.session));
  return createServices(
    (interceptors) =>
      createRouterTransport(routes, {
        transport: { interceptors: [...interceptors, ...(options.network ?? [])] },
      }),
    {
      queryClient: (toasts) => {
        const client = createQueryClient(toasts);
        const defaults = client.getDefaultOptions();
        // A call that never reached the server still waits for it, as in the browser.
        const retry = (_failures: number, error: unknown) => isNetworkFailure(error);
        client.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, retry } });
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

/**
 * A network a test can pull the plug on: while `down`, every call fails as fetch fails when
 * nothing answers (a TypeError), before it reaches the in-memory server.
 */
export function pluggableNetwork(): { down: boolean; interceptor: Interceptor } {
  const network = {
    down: false,
    interceptor: ((next) => async (request) => {
      if (network.down) throw new TypeError('Failed to fetch');
      return next(request);
    }) as Interceptor,
  };
  return network;
}
