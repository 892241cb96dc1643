import type { DescMessage } from '@bufbuild/protobuf';
import type { Interceptor, StreamResponse } from '@connectrpc/connect';
import type { ConnectivityStore } from './connectivity-store';

/**
 * Tells the connectivity store how every call went: answered (even with a refusal) or never
 * reached the server. It sees fetch's own TypeError, before connect wraps it as Unknown.
 */
export function createConnectivityInterceptor(store: ConnectivityStore): Interceptor {
  return (next) => async (request) => {
    try {
      const response = await next(request);
      store.reportAnswer();
      return response.stream ? watchStream(response, store) : response;
    } catch (error) {
      store.reportFailure(error);
      throw error;
    }
  };
}

/** A stream can lose the server half-way: its read fails with the network's error. */
function watchStream<I extends DescMessage, O extends DescMessage>(
  response: StreamResponse<I, O>,
  store: ConnectivityStore,
): StreamResponse<I, O> {
  const messages = response.message;
  return {
    ...response,
    message: (async function* () {
      try {
        yield* messages;
      } catch (error) {
        store.reportFailure(error);
        throw error;
      }
    })(),
  };
}
