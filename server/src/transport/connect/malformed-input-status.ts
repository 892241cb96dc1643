import type { ConnectRouter } from '@connectrpc/connect';
import type { UniversalServerResponse } from '@connectrpc/connect/protocol';
import { replacingHandler } from './universal-handler-wrap.js';

/**
 * connect-es answers some requests that are the caller's fault with a status that blames us or
 * the method, before any interceptor runs:
 * - Internal: a body that is not valid protobuf ("parse binary: …"), a compressed body that does
 *   not inflate (a truncated gzip stream: "decompression failed"), an envelope flagged compressed
 *   without a negotiated encoding;
 * - Unimplemented: a gRPC or streaming request with no message (an empty body) or with a second
 *   one for a method that takes one.
 * DESIGN.md §3 (Errors) keeps Internal for our own faults, Unimplemented means the method is not
 * there, and a malformed request is InvalidArgument. These wrappers rewrite exactly those
 * answers in whichever protocol answered; every other response passes through untouched.
 */
const MALFORMED_INPUT = new Map<string, RegExp>([
  [
    'internal',
    /^(parse binary: |received compressed envelope, but do not know how|decompression failed$)/,
  ],
  ['unimplemented', /^protocol error: (missing|received extra) input message for /],
]);
/** The gRPC status numbers of MALFORMED_INPUT's codes. */
const GRPC_CODE_NAMES = new Map([
  ['13', 'internal'],
  ['12', 'unimplemented'],
]);
/**
 * An error message with an unpaired UTF-16 surrogate (a JSON request can carry one, and a parse
 * error or a message echoing the input repeats it) makes connect's gRPC trailer encoding throw
 * (encodeURIComponent): the response would never end and the call would hang. Such a response
 * ends with this message instead.
 */
const UNENCODABLE = 'the request held text that is not valid Unicode';
const GRPC_INVALID_ARGUMENT = '3';

/** Whether connect's answer is one to correct; `code` is a Connect code name or a gRPC status. */
function isMalformedInput(code: string, message: string): boolean {
  return MALFORMED_INPUT.get(GRPC_CODE_NAMES.get(code) ?? code)?.test(message) ?? false;
}

/** Replaces every handler of the router with one whose malformed-input answers are corrected. */
export function correctMalformedInputStatus(router: ConnectRouter): void {
  for (const [i, handler] of router.handlers.entries()) {
    const corrected = async (request: Parameters<typeof handler>[0]) => {
      let response: UniversalServerResponse;
      try {
        response = await handler(request);
      } catch (error) {
        // Before the first body byte, connect's trailer failure rejects the whole handler.
        if (error instanceof URIError) return unencodableResponse(request.header);
        throw error;
      }
      return correctResponse(response);
    };
    router.handlers[i] = replacingHandler(handler, corrected);
  }
}

async function correctResponse(
  response: UniversalServerResponse,
): Promise<UniversalServerResponse> {
  const type = response.header?.get('content-type') ?? '';
  const body = response.body;
  if (!body) return response;
  if (type.startsWith('application/grpc-web')) {
    return {
      ...response,
      body: (async function* () {
        try {
          yield* mapChunks(body, correctGrpcWebTrailerFrame);
        } catch (error) {
          if (!(error instanceof URIError)) throw error;
          // connect could not write its trailer frame (see UNENCODABLE); the status it meant to
          // send is out of reach here, and only caller text can hold such a message.
          yield unencodableTrailerFrame();
        }
      })(),
    };
  }
  if (type.startsWith('application/grpc')) {
    const trailer = response.trailer;
    if (!trailer) return response;
    // The trailer is filled while the body is produced; correct it once the body has ended.
    return {
      ...response,
      body: (async function* () {
        try {
          yield* body;
        } catch (error) {
          if (!(error instanceof URIError)) throw error;
          // connect set grpc-status and then failed on grpc-message (see UNENCODABLE).
          trailer.set('grpc-message', encodeURIComponent(UNENCODABLE));
        }
        correctGrpcTrailer(trailer);
      })(),
    };
  }
  if (type.startsWith('application/connect')) {
    return { ...response, body: mapChunks(body, correctConnectEndStream) };
  }
  if (type.startsWith('application/json') && response.status === 500) {
    // A Connect unary error: a small JSON body whose code decides the HTTP status, so read it.
    const chunks: Uint8Array[] = [];
    for await (const chunk of body) chunks.push(chunk);
    const original = Buffer.concat(chunks);
    const fixed = correctConnectError(original, (json) => json);
    if (fixed !== original) response.header?.set('content-length', String(fixed.byteLength));
    return {
      ...response,
      status: fixed === original ? response.status : 400,
      body: (async function* () {
        yield fixed;
      })(),
    };
  }
  return response;
}

function unencodableTrailerFrame(): Uint8Array {
  const text = `grpc-status: ${GRPC_INVALID_ARGUMENT}\r\ngrpc-message: ${encodeURIComponent(UNENCODABLE)}\r\n`;
  return envelope(0x80, new TextEncoder().encode(text));
}

/** A whole gRPC or gRPC-Web answer carrying InvalidArgument with UNENCODABLE. */
function unencodableResponse(requestHeader: Headers): UniversalServerResponse {
  const type = requestHeader.get('content-type') ?? '';
  const web = type.startsWith('application/grpc-web');
  const json = type.endsWith('+json');
  const header = new Headers({
    'content-type': `application/grpc${web ? '-web' : ''}+${json ? 'json' : 'proto'}`,
  });
  if (web) {
    return {
      status: 200,
      header,
      body: (async function* () {
        yield unencodableTrailerFrame();
      })(),
    };
  }
  return {
    status: 200,
    header,
    body: (async function* () {})(),
    trailer: new Headers({
      'grpc-status': GRPC_INVALID_ARGUMENT,
      'grpc-message': encodeURIComponent(UNENCODABLE),
    }),
  };
}

function mapChunks(
  body: AsyncIterable<Uint8Array>,
  map: (chunk: Uint8Array) => Uint8Array,
): AsyncIterable<Uint8Array> {
  return (async function* () {
    for await (const chunk of body) yield map(chunk);
  })();
}

function correctGrpcTrailer(trailer: Headers): void {
  const message = decodeURIComponent(trailer.get('grpc-message') ?? '');
  if (isMalformedInput(trailer.get('grpc-status') ?? '', message)) {
    trailer.set('grpc-status', GRPC_INVALID_ARGUMENT);
  }
}

/** One whole envelope (flags, length, data) in a chunk, as connect's handlers write them. */
function envelopeOf(chunk: Uint8Array): { flags: number; data: Uint8Array } | undefined {
  if (chunk.length < 5) return undefined;
  const length = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength).getUint32(1);
  if (chunk.length !== 5 + length) return undefined;
  return { flags: chunk[0] ?? 0, data: chunk.subarray(5) };
}

function envelope(flags: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + data.length);
  out[0] = flags;
  new DataView(out.buffer).setUint32(1, data.length);
  out.set(data, 5);
  return out;
}

function correctGrpcWebTrailerFrame(chunk: Uint8Array): Uint8Array {
  const frame = envelopeOf(chunk);
  if (!frame || (frame.flags & 0x80) === 0) return chunk;
  const text = new TextDecoder().decode(frame.data);
  const message = decodeURIComponent(/^grpc-message: *(.*)$/im.exec(text)?.[1]?.trim() ?? '');
  const status = /^grpc-status: *(\d+)\r?$/im.exec(text)?.[1] ?? '';
  if (!isMalformedInput(status, message)) return chunk;
  const fixed = text.replace(/^grpc-status: *\d+/im, `grpc-status: ${GRPC_INVALID_ARGUMENT}`);
  return envelope(frame.flags, new TextEncoder().encode(fixed));
}

function correctConnectEndStream(chunk: Uint8Array): Uint8Array {
  const frame = envelopeOf(chunk);
  if (!frame || (frame.flags & 0x02) === 0) return chunk;
  const fixed = correctConnectError(frame.data, (json) => (json.error ?? {}) as ConnectErrorJson);
  return fixed === frame.data ? chunk : envelope(frame.flags, fixed);
}

interface ConnectErrorJson {
  code?: string;
  message?: string;
  error?: unknown;
}

/** Rewrites `{code: "internal", message: "parse binary: …"}` and the like (found by `locate`). */
function correctConnectError(
  bytes: Uint8Array,
  locate: (json: ConnectErrorJson) => ConnectErrorJson,
): Uint8Array {
  let json: ConnectErrorJson;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes)) as ConnectErrorJson;
  } catch {
    return bytes;
  }
  const error = locate(json);
  if (!isMalformedInput(error.code ?? '', error.message ?? '')) return bytes;
  error.code = 'invalid_argument';
  return new TextEncoder().encode(JSON.stringify(json));
}
