import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { encodeGrpcMessage } from '../transport/index.js';

type Protocol = 'grpc' | 'grpc-web' | 'grpc-web-text' | 'connect-stream' | 'connect-unary';

/** gRPC's code for a method or service the server does not have. */
const UNIMPLEMENTED = 12;

function contentType(req: IncomingMessage | Http2ServerRequest): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * The RPC protocol a request that matched no route speaks, by its content type (and, for a
 * Connect GET, its `connect=v1` query); undefined for anything else (a page, a file).
 */
export function rpcProtocolOf(req: IncomingMessage | Http2ServerRequest): Protocol | undefined {
  const type = contentType(req);
  if (type.startsWith('application/grpc-web-text')) return 'grpc-web-text';
  if (type.startsWith('application/grpc-web')) return 'grpc-web';
  if (type.startsWith('application/grpc')) return 'grpc';
  if (type.startsWith('application/connect+')) return 'connect-stream';
  if (req.method === 'POST' && (type === 'application/json' || type === 'application/proto')) {
    return 'connect-unary';
  }
  if (req.method === 'GET' && /[?&]connect=v1(&|$)/.test(req.url ?? '')) return 'connect-unary';
  return undefined;
}

/** "unknown method /a.B/C" with the path cut to a readable length and free of control bytes. */
function messageFor(req: IncomingMessage | Http2ServerRequest): string {
  const path = [...(req.url ?? '').split('?')[0]!]
    .filter((char) => char >= ' ' && char !== '\x7f')
    .join('')
    .slice(0, 200);
  return `unknown method ${path}: this server has no such service or method`;
}

/** What this needs of an HTTP/1.1 or HTTP/2 compatibility response. */
interface PlainResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(body?: Uint8Array | string): unknown;
}

/**
 * Answers a request for a method or service the server does not have with Unimplemented in the
 * protocol it spoke, as gRPC, gRPC-Web and Connect clients expect: gRPC and gRPC-Web a
 * trailers-only 200 with grpc-status 12; Connect streaming an end-of-stream message; Connect
 * unary HTTP 404 with {"code":"unimplemented"}. Without it, the HTTP port's static-file handler
 * answered 405, which clients read as Unknown.
 */
export function answerUnimplemented(
  req: IncomingMessage | Http2ServerRequest,
  res: PlainResponse,
  protocol: Protocol,
): void {
  // Read and drop the body: an HTTP/2 stream whose body is never read never closes.
  req.resume();
  const message = messageFor(req);
  const send = (status: number, headers: Record<string, string>, body?: Uint8Array | string) => {
    res.writeHead(status, headers);
    res.end(body);
  };
  switch (protocol) {
    case 'grpc':
    case 'grpc-web':
    case 'grpc-web-text':
      send(200, {
        'content-type': `application/${protocol}+proto`,
        'grpc-status': String(UNIMPLEMENTED),
        'grpc-message': encodeGrpcMessage(message),
      });
      return;
    case 'connect-stream': {
      const json = Buffer.from(JSON.stringify({ error: { code: 'unimplemented', message } }));
      const frame = Buffer.alloc(5 + json.length);
      frame.writeUInt8(0x02, 0); // end of stream
      frame.writeUInt32BE(json.length, 1);
      json.copy(frame, 5);
      const codec = contentType(req).slice('application/connect+'.length) || 'proto';
      send(200, { 'content-type': `application/connect+${codec}` }, frame);
      return;
    }
    case 'connect-unary':
      send(
        404,
        { 'content-type': 'application/json' },
        JSON.stringify({ code: 'unimplemented', message }),
      );
  }
}

/** What the gRPC port answers to anything that is not an RPC. */
export function answerNotFound(
  req: IncomingMessage | Http2ServerRequest,
  res: PlainResponse,
): void {
  req.resume();
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('not found');
}
