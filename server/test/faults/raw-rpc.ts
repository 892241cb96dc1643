// Raw HTTP/1.1 and h2c clients for the fuzzer: they send exactly the bytes given (no framing or
// checks of their own, unlike the connect transports) and read the gRPC status back from
// whichever protocol answered (gRPC trailers, gRPC-Web trailer frame, Connect end-stream or
// error body), or only the HTTP status when no RPC protocol answered at all.
import http, { type OutgoingHttpHeaders } from 'node:http';
import http2 from 'node:http2';

/** What came back: the gRPC code when a protocol answered, always the HTTP status. */
export interface RawOutcome {
  httpStatus: number;
  grpcCode: number | undefined;
  message: string;
}

const CONNECT_CODES = [
  'ok',
  'canceled',
  'unknown',
  'invalid_argument',
  'deadline_exceeded',
  'not_found',
  'already_exists',
  'permission_denied',
  'resource_exhausted',
  'failed_precondition',
  'aborted',
  'out_of_range',
  'unimplemented',
  'internal',
  'unavailable',
  'data_loss',
  'unauthenticated',
];

/** The 5-byte envelope of gRPC, gRPC-Web and Connect streaming around a payload. */
export function envelope(flags: number, payload: Uint8Array, declaredLength = payload.length) {
  const out = Buffer.alloc(5 + payload.length);
  out.writeUInt8(flags, 0);
  out.writeUInt32BE(declaredLength >>> 0, 1);
  out.set(payload, 5);
  return out;
}

function frames(body: Buffer): Array<{ flags: number; data: Buffer }> {
  const out = [];
  let at = 0;
  while (at + 5 <= body.length) {
    const length = body.readUInt32BE(at + 1);
    out.push({ flags: body[at] ?? 0, data: body.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  return out;
}

function header(headers: Record<string, unknown>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? String(value[0]) : value === undefined ? undefined : String(value);
}

function connectCode(json: string): number | undefined {
  try {
    const parsed = JSON.parse(json) as { code?: string; error?: { code?: string } };
    const code = parsed.error ? parsed.error.code : parsed.code;
    const index = CONNECT_CODES.indexOf(code ?? '');
    return index < 0 ? undefined : index;
  } catch {
    return undefined;
  }
}

/** Reads the gRPC code out of a response of any of the three protocols. */
export function classify(
  httpStatus: number,
  headers: Record<string, unknown>,
  trailers: Record<string, unknown>,
  body: Buffer,
): RawOutcome {
  const type = header(headers, 'content-type') ?? '';
  const statusOf = (value: string | undefined, message: string | undefined): RawOutcome => ({
    httpStatus,
    grpcCode: value === undefined ? undefined : Number(value),
    message: decodeURIComponent(message ?? ''),
  });
  if (type.startsWith('application/grpc-web')) {
    const trailer = frames(body).find((f) => (f.flags & 0x80) !== 0);
    if (!trailer) return statusOf(header(headers, 'grpc-status'), header(headers, 'grpc-message'));
    const text = trailer.data.toString();
    return statusOf(
      /grpc-status:\s*(\d+)/i.exec(text)?.[1],
      /grpc-message:\s*([^\r\n]*)/i.exec(text)?.[1],
    );
  }
  if (type.startsWith('application/grpc')) {
    return statusOf(
      header(trailers, 'grpc-status') ?? header(headers, 'grpc-status'),
      header(trailers, 'grpc-message') ?? header(headers, 'grpc-message'),
    );
  }
  if (type.startsWith('application/connect')) {
    const end = frames(body).find((f) => (f.flags & 0x02) !== 0);
    const json = end?.data.toString() ?? '';
    return { httpStatus, grpcCode: end ? (connectCode(json) ?? 0) : undefined, message: json };
  }
  if (httpStatus === 200 && (type === 'application/proto' || type === 'application/json')) {
    return { httpStatus, grpcCode: 0, message: '' };
  }
  if (type.startsWith('application/json')) {
    const json = body.toString();
    return { httpStatus, grpcCode: connectCode(json), message: json };
  }
  return { httpStatus, grpcCode: undefined, message: body.subarray(0, 200).toString() };
}

/** One request over HTTP/1.1 (keep-alive agent), the whole body at once. */
export function sendHttp1(
  agent: http.Agent,
  baseUrl: string,
  path: string,
  headers: OutgoingHttpHeaders,
  body: Uint8Array,
  timeoutMs = 20_000,
): Promise<RawOutcome> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${baseUrl}${path}`,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': body.length },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve(
            classify(
              res.statusCode ?? 0,
              res.headers,
              res.trailers as Record<string, unknown>,
              Buffer.concat(chunks),
            ),
          ),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** One request as a stream of an h2c session. */
export function sendH2(
  session: http2.ClientHttp2Session,
  path: string,
  headers: http2.OutgoingHttpHeaders,
  body: Uint8Array,
  timeoutMs = 20_000,
): Promise<RawOutcome> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': path, ...headers });
    let responseHeaders: Record<string, unknown> = {};
    let trailers: Record<string, unknown> = {};
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      stream.close(http2.constants.NGHTTP2_CANCEL);
      reject(new Error(`no answer in ${timeoutMs} ms`));
    }, timeoutMs);
    stream.on('response', (h) => (responseHeaders = h));
    stream.on('trailers', (t) => (trailers = t));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      clearTimeout(timer);
      resolve(
        classify(
          Number(responseHeaders[':status'] ?? 0),
          responseHeaders,
          trailers,
          Buffer.concat(chunks),
        ),
      );
    });
    stream.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    stream.end(body);
  });
}
