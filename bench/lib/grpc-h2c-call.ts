// What the lean h2c clients (rows 8, 9 and 13) share: a request's gRPC framing and how a call
// ends (grpc-status in the trailers, or in the headers of a trailers-only answer).
import type { ClientHttp2Stream } from 'node:http2';

/** One uncompressed gRPC message: flag byte, big-endian length, payload. */
export function grpcFrame(payload: Uint8Array): Buffer {
  const body = Buffer.allocUnsafe(5 + payload.length);
  body[0] = 0;
  body.writeUInt32BE(payload.length, 1);
  body.set(payload, 5);
  return body;
}

/** Calls `ended` when `stream` closes: no error for grpc-status 0, else one naming the status. */
export function whenGrpcCallEnds(
  stream: ClientHttp2Stream,
  ended: (error: Error | undefined) => void,
): void {
  let status: string | undefined;
  let message = '';
  stream.on('response', (headers) => {
    if (headers['grpc-status'] !== undefined) status = String(headers['grpc-status']);
  });
  stream.on('trailers', (trailers) => {
    status = String(trailers['grpc-status']);
    message = decodeURIComponent(String(trailers['grpc-message'] ?? ''));
  });
  stream.on('close', () =>
    ended(
      status === '0'
        ? undefined
        : new Error(`gRPC h2c call ended with status ${status}: ${message}`),
    ),
  );
}
