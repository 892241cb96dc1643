import type { DescService } from '@bufbuild/protobuf';
import {
  createRouterTransport,
  type Interceptor,
  type ServiceImpl,
  type Transport,
} from '@connectrpc/connect';

/** A request that reached the wire: the method name and the decoded message. */
export interface RecordedCall {
  method: string;
  message: unknown;
}

/**
 * An in-memory transport (connect's router transport) that records every call that leaves the
 * client, so tests can prove that a rejected call sent nothing.
 */
export function createRecordingTransport<S extends DescService>(
  service: S,
  implementation: Partial<ServiceImpl<S>>,
): { transport: Transport; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const record: Interceptor = (next) => async (request) => {
    const message = request.stream ? '(stream)' : request.message;
    calls.push({ method: request.method.name, message });
    return next(request);
  };
  const transport = createRouterTransport(
    ({ service: register }) => {
      register(service, implementation);
    },
    { transport: { interceptors: [record] } },
  );
  return { transport, calls };
}
