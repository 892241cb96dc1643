import type { Interceptor } from '@connectrpc/connect';
import type { Logger } from '../logging/logger.js';
import { toConnectError } from './errors.js';

/**
 * Maps every error a handler raises, before or during a response stream, to a proper gRPC status
 * so nothing ever leaves as Unknown or with an internal detail.
 */
export function errorMappingInterceptor(logger: Logger): Interceptor {
  return (next) => async (request) => {
    try {
      const response = await next(request);
      if (!response.stream) return response;
      const messages = response.message;
      const method = request.method.name;
      return {
        ...response,
        message: (async function* () {
          try {
            yield* messages;
          } catch (error) {
            throw toConnectError(error, logger, method);
          }
        })(),
      };
    } catch (error) {
      throw toConnectError(error, logger, request.method.name);
    }
  };
}
