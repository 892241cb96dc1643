import { MutationCache, QueryClient } from '@tanstack/react-query';
import { Code, ConnectError } from '@connectrpc/connect';
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
 * The console's QueryClient. Query failures show in place (an error banner); mutation failures
 * become a toast with the gRPC code and message. Unauthenticated is neither: the session
 * interceptor already sent the user back to sign-in.
 */
export function createQueryClient(toasts: ToastStore): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        retry: (failures, error) => !isPermanent(error) && failures < 2,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (mutation.meta?.silent) return;
        if (ConnectError.from(error).code === Code.Unauthenticated) return;
        toasts.push({
          tone: 'error',
          title: mutation.meta?.errorTitle ?? 'Request failed',
          detail: describeError(error),
          technical: technicalText(explainError(error)),
        });
      },
    }),
  });
}
