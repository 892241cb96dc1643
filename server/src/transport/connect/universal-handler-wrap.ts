import type {
  UniversalHandler,
  UniversalServerRequest,
  UniversalServerResponse,
} from '@connectrpc/connect/protocol';

/**
 * `handle` as a router handler in `original`'s place: the router and the adapter find a handler
 * by these fields (path, method, protocols, content types), so a wrapper must carry them over.
 */
export function replacingHandler(
  original: UniversalHandler,
  handle: (request: UniversalServerRequest) => Promise<UniversalServerResponse>,
): UniversalHandler {
  return Object.assign(handle, {
    protocolNames: original.protocolNames,
    allowedMethods: original.allowedMethods,
    supportedContentType: original.supportedContentType,
    requestPath: original.requestPath,
    service: original.service,
    method: original.method,
  });
}
