/**
 * A gRPC-Web transport whose named server streams read their response into one reused buffer
 * (reused-buffer-envelopes.ts); every other call goes through connect-web's transport unchanged.
 *
 * Only streams whose consumer is done with a message before asking for the next may be named: a
 * message's `bytes` fields are views of the buffer that the next read overwrites. The export is
 * one (artifact-download.ts hashes and copies each chunk before the next); a stream whose
 * messages are kept (a list, a cache) is not.
 */

import type {
  DescMessage,
  DescMethod,
  DescMethodStreaming,
  MessageInitShape,
} from '@bufbuild/protobuf';
import {
  Code,
  ConnectError,
  createContextValues,
  type ContextValues,
  type Interceptor,
  type Transport,
} from '@connectrpc/connect';
import {
  compressedFlag,
  createClientMethodSerializers,
  createMethodUrl,
  encodeEnvelope,
  runStreamingCall,
} from '@connectrpc/connect/protocol';
import {
  requestHeader,
  trailerFlag,
  trailerParse,
  validateResponse,
  validateTrailer,
} from '@connectrpc/connect/protocol-grpc-web';
import { reusedBufferEnvelopes } from './reused-buffer-envelopes';

export interface ReusedBufferStreamOptions {
  baseUrl: string;
  interceptors: Interceptor[];
  /** The server-streaming methods read this way (compared by their full name). */
  methods: readonly DescMethod[];
  /** The fetch to call (the page's by default; a test passes a router's fetch handler). */
  fetch?: typeof globalThis.fetch;
}

export function withReusedBufferStreams(
  base: Transport,
  options: ReusedBufferStreamOptions,
): Transport {
  const names = new Set(options.methods.map((m) => `${m.parent.typeName}/${m.name}`));
  return {
    unary: (...args) => base.unary(...args),
    stream(method, signal, timeoutMs, header, input, contextValues) {
      if (
        method.methodKind !== 'server_streaming' ||
        !names.has(`${method.parent.typeName}/${method.name}`)
      )
        return base.stream(method, signal, timeoutMs, header, input, contextValues);
      return reusedBufferStream(options, method, signal, timeoutMs, header, input, contextValues);
    },
  };
}

/** connect-web's gRPC-Web server stream (binary format, no compression), read into one buffer. */
function reusedBufferStream<I extends DescMessage, O extends DescMessage>(
  options: ReusedBufferStreamOptions,
  method: DescMethodStreaming<I, O>,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  header: HeadersInit | undefined,
  input: AsyncIterable<MessageInitShape<I>>,
  contextValues: ContextValues | undefined,
) {
  const { serialize, parse } = createClientMethodSerializers(method, true);
  const timeout = timeoutMs !== undefined && timeoutMs <= 0 ? undefined : timeoutMs;
  return runStreamingCall<I, O>({
    interceptors: options.interceptors,
    signal,
    timeoutMs: timeout,
    req: {
      stream: true,
      service: method.parent,
      method,
      requestMethod: 'POST',
      url: createMethodUrl(options.baseUrl, method),
      header: requestHeader(true, timeout, header, false),
      contextValues: contextValues ?? createContextValues(),
      message: input,
    },
    next: async (req) => {
      const first = await req.message[Symbol.asyncIterator]().next();
      if (first.done === true) throw new ConnectError('missing request message', Code.Internal);
      const response = await (options.fetch ?? globalThis.fetch)(req.url, {
        redirect: 'error',
        method: req.requestMethod,
        headers: req.header,
        signal: req.signal,
        body: encodeEnvelope(0, serialize(first.value)),
      });
      const { foundStatus, headerError } = validateResponse(response.status, response.headers);
      if (headerError) throw headerError;
      if (!response.body) throw new ConnectError('missing response body', Code.Internal);
      const trailer = new Headers();
      return {
        ...req,
        header: response.headers,
        trailer,
        message: messages(response.body, foundStatus, trailer, response.headers, req.signal),
      };
    },
  });

  async function* messages(
    body: ReadableStream<Uint8Array>,
    trailersOnly: boolean,
    trailerTarget: Headers,
    responseHeader: Headers,
    callSignal: AbortSignal,
  ) {
    let trailerReceived = false;
    for await (const { flags, data } of reusedBufferEnvelopes(body)) {
      // A "grpc-status: 0" response header said there is no body (trailers-only).
      if (trailersOnly) throw new ConnectError('extra data for trailers-only', Code.Internal);
      if ((flags & compressedFlag) === compressedFlag)
        throw new ConnectError(
          'protocol error: received unsupported compressed output',
          Code.Internal,
        );
      if ((flags & trailerFlag) === trailerFlag) {
        if (trailerReceived) throw new ConnectError('extra trailer', Code.Internal);
        trailerReceived = true;
        const parsed = trailerParse(data);
        validateTrailer(parsed, responseHeader);
        parsed.forEach((value, key) => trailerTarget.set(key, value));
        continue;
      }
      if (trailerReceived) throw new ConnectError('extra message', Code.Internal);
      yield parse(data);
    }
    callSignal.throwIfAborted();
    if (!trailersOnly && !trailerReceived) throw new ConnectError('missing trailer', Code.Internal);
  }
}
