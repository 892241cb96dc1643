// A lean gRPC-Web (binary, HTTP/1.1) client for one server-streaming call, as lean as the plain
// `http.get` that row 4's static baseline uses: frames are reassembled into one reused buffer and
// decoded by the contract's generated code. connect-node's own client spends about twice the
// server's CPU time per 64 KiB message (it concatenates every frame that spans two socket reads
// and re-buffers the body), so with it the row measured the client, not the export.
import { request } from 'node:http';
import { fromBinary, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';

export interface GrpcWebStreamCall<I extends DescMessage, O extends DescMessage> {
  url: string;
  headers: Record<string, string>;
  input: I;
  output: O;
  message: MessageShape<I>;
  onMessage: (message: MessageShape<O>) => void;
}

const TRAILER_FLAG = 0x80;

function envelope(payload: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(5 + payload.length);
  frame[0] = 0;
  frame.writeUInt32BE(payload.length, 1);
  frame.set(payload, 5);
  return frame;
}

function trailerStatus(payload: Buffer): { code: number; message: string } {
  const fields = new Map<string, string>();
  for (const line of payload.toString('latin1').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return {
    code: Number(fields.get('grpc-status') ?? 2),
    message: decodeURIComponent(fields.get('grpc-message') ?? ''),
  };
}

/** Resolves when the stream ends with grpc-status 0; rejects with the status otherwise. */
export function grpcWebServerStream<I extends DescMessage, O extends DescMessage>(
  call: GrpcWebStreamCall<I, O>,
): Promise<void> {
  const body = envelope(toBinary(call.input, call.message));
  return new Promise((resolve, reject) => {
    const req = request(call.url, {
      method: 'POST',
      headers: {
        ...call.headers,
        'content-type': 'application/grpc-web+proto',
        'x-grpc-web': '1',
        'content-length': String(body.length),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`gRPC-Web call answered HTTP ${res.statusCode}`));
        return;
      }
      let frame = Buffer.allocUnsafe(1 << 17);
      const header = Buffer.alloc(5);
      let headerFill = 0;
      let want = -1; // payload length of the frame being read, -1 while reading its header
      let fill = 0;
      let trailers: { code: number; message: string } | undefined;
      const finishFrame = (payload: Buffer) => {
        if (header[0]! & TRAILER_FLAG) trailers = trailerStatus(payload);
        else call.onMessage(fromBinary(call.output, payload));
      };
      res.on('data', (chunk: Buffer) => {
        let at = 0;
        while (at < chunk.length) {
          if (want < 0) {
            const take = Math.min(5 - headerFill, chunk.length - at);
            chunk.copy(header, headerFill, at, at + take);
            headerFill += take;
            at += take;
            if (headerFill < 5) return;
            want = header.readUInt32BE(1);
            fill = 0;
            if (want > frame.length) frame = Buffer.allocUnsafe(want);
            if (want === 0) {
              finishFrame(frame.subarray(0, 0));
              want = -1;
              headerFill = 0;
              continue;
            }
          }
          const take = Math.min(want - fill, chunk.length - at);
          // A frame wholly inside one socket read is decoded in place, without a copy.
          if (fill === 0 && take === want) finishFrame(chunk.subarray(at, at + take));
          else {
            chunk.copy(frame, fill, at, at + take);
            fill += take;
            if (fill === want) finishFrame(frame.subarray(0, want));
          }
          at += take;
          if (fill === want || (fill === 0 && take === want)) {
            want = -1;
            headerFill = 0;
          }
        }
      });
      res.on('error', reject);
      res.on('end', () => {
        const headerStatus = res.headers['grpc-status'];
        if (!trailers && typeof headerStatus === 'string') {
          trailers = trailerStatus(
            Buffer.from(
              `grpc-status:${headerStatus}\r\ngrpc-message:${res.headers['grpc-message'] ?? ''}`,
            ),
          );
        }
        if (want >= 0 || headerFill > 0) reject(new Error('the stream ended inside a frame'));
        else if (!trailers) reject(new Error('the stream ended without trailers'));
        else if (trailers.code !== 0) {
          reject(new Error(`grpc-status ${trailers.code}: ${trailers.message}`));
        } else resolve();
      });
    });
    req.end(body);
  });
}
