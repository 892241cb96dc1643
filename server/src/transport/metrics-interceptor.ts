import { performance } from 'node:perf_hooks';
import { Code, ConnectError, type Interceptor } from '@connectrpc/connect';

/** A call's labels as the gRPC ecosystem's server metrics name them (go-grpc-prometheus). */
export interface CallLabels {
  service: string;
  method: string;
  type: 'unary' | 'client_stream' | 'server_stream' | 'bidi_stream';
}

/** Where the interceptor reports calls; the metrics module implements it with prom-client. */
export interface CallMetrics {
  started(call: CallLabels): void;
  /** `code` is the canonical name: OK, Canceled, InvalidArgument, … */
  handled(call: CallLabels, code: string, seconds: number): void;
}

const TYPES: Record<string, CallLabels['type']> = {
  unary: 'unary',
  client_streaming: 'client_stream',
  server_streaming: 'server_stream',
  bidi_streaming: 'bidi_stream',
};

/** OK, or the gRPC code's canonical name (Code.PermissionDenied → PermissionDenied). */
export function canonicalCodeName(code: Code | undefined): string {
  return code === undefined ? 'OK' : Code[code];
}

/**
 * Counts every call and how it ended, with its duration (grpc_server_started_total,
 * grpc_server_handled_total, grpc_server_handling_seconds). Outermost of the interceptors, so it
 * sees the status the client gets, refusals included; a response stream ends when its last
 * message is sent, or Canceled when the client went away first.
 */
export function metricsInterceptor(metrics: CallMetrics): Interceptor {
  return (next) => async (request) => {
    const call: CallLabels = {
      service: request.service.typeName,
      method: request.method.name,
      type: TYPES[request.method.methodKind] ?? 'unary',
    };
    metrics.started(call);
    const startedAt = performance.now();
    const handled = (code: Code | undefined) =>
      metrics.handled(call, canonicalCodeName(code), (performance.now() - startedAt) / 1000);
    let response;
    try {
      response = await next(request);
    } catch (error) {
      handled(ConnectError.from(error).code);
      throw error;
    }
    if (!response.stream) {
      handled(undefined);
      return response;
    }
    const messages = response.message;
    return {
      ...response,
      message: (async function* () {
        let ended = false;
        let failed: Code | undefined;
        try {
          yield* messages;
          ended = true;
        } catch (error) {
          failed = ConnectError.from(error).code;
          throw error;
        } finally {
          handled(ended ? undefined : (failed ?? Code.Canceled));
        }
      })(),
    };
  };
}
