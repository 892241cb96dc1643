import type { OutgoingHttpHeaders } from 'node:http';

/**
 * gRPC's own percent-encoding of `grpc-message` (PROTOCOL-HTTP2.md, "Percent-Encoded"): the
 * message's UTF-8 bytes outside 0x20–0x7E, and '%' itself, as %XX; everything else as is.
 */
export function encodeGrpcMessage(message: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(message)) return message;
  let out = '';
  for (const byte of new TextEncoder().encode(message)) {
    out +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** connect's encodeURIComponent form, re-encoded as gRPC's; a value it cannot read stays. */
function respecified(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return encodeGrpcMessage(decodeURIComponent(value));
  } catch {
    return value;
  }
}

function withSpecMessage<T>(headers: T): T {
  if (headers === null || typeof headers !== 'object' || !('grpc-message' in headers)) {
    return headers;
  }
  const copy = { ...(headers as OutgoingHttpHeaders) };
  copy['grpc-message'] = respecified(copy['grpc-message']) as string;
  return copy as T;
}

interface HeaderWriting {
  writeHead(...args: never[]): unknown;
  addTrailers(trailers: OutgoingHttpHeaders): void;
}

/**
 * connect 2.1.x writes `grpc-message` with encodeURIComponent, which also escapes ':', ';', '/',
 * '?' and more; grpc-js decodes it with decodeURI, which leaves those escaped (a grpc-js client
 * read "protected by token%3Aabc"). This rewrites the header where the Node adapter writes it —
 * `writeHead(status, headers)` for a trailers-only answer, `addTrailers(trailers)` after a body —
 * so every client reads the message as sent. gRPC-Web's trailers travel in the body, where
 * connect-web and grpc-web decode with decodeURIComponent: they are left as connect writes them.
 */
export function writeGrpcMessagesPerSpec(response: HeaderWriting): void {
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => unknown;
  const addTrailers = response.addTrailers.bind(response);
  (response as unknown as { writeHead: (...args: unknown[]) => unknown }).writeHead = (...args) =>
    writeHead(...args.map((arg, i) => (i === 0 ? arg : withSpecMessage(arg))));
  response.addTrailers = (trailers) => addTrailers(withSpecMessage(trailers));
}
