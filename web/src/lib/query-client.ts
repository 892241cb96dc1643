import { MutationCache, QueryClient } from '@tanstack/react-query';
import { Code, ConnectError } from '@connectrpc/connect';
import { isNetworkFailure } from './connectivity/network-failure';
import { describeError, explainError, isPermanent, technicalText } from './errors';
import type { ToastStore } from './toast/toast-store';

/**
 * Mutation meta: `silent` for mutations that show their own errors (the token form), and
 * `errorTitle` to name what failed in the toast ("Cancel failed").
 */
declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: { silent?: boolean; errorTitle?: string };
  }
}

/**
 * Queries retry a failure a retry may fix twice; one that never reached the server retries
 * until it does. While the server is unreachable React Query holds such a retry (the
 * connectivity store sets it offline), so the query keeps its data and shows no error.
 */
export function retryQuery(failures: number, error: unknown): boolean {
  if (isNetworkFailure(error)) return true;
  return !isPermanent(error) && failures < 2;
}

/**
 * The console's QueryClient. Query failures show in place (an error banner); mutation failures
 * become a toast with the gRPC code and message. Unauthenticated is neither: the session
 * interceptor already sent the user back to sign-in.
 */
export function createQueryClient(toasts: ToastStore): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        retry: retryQuery,
        refetchOnWindowFocus: true,
      },
      // An action is sent at once or fails at once: never queued to run later, unseen, when
      // the server is back.
      mutations: { retry: false, networkMode: 'always' },
    },
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.silent) return;
        if (ConnectError.from(error).code === Code.Unauthenticated) return;
        const unreached = isNetworkFailure(error);
        toasts.push({
          tone: 'error',
          title: mutation.meta?.errorTitle ?? 'Request failed',
          // The banner says the server is gone; the toast says what that did to this action.
          detail: unreached
            ? 'The console could not reach the server, so this may not have been done. ' +
              'Check once the server is back.'
            : describeError(error),
          technical: technicalText(explainError(error)),
        });
      },
    }),
  });
}
