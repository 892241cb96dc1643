// A lean native gRPC (h2c) client for one server-streaming call, with large HTTP/2 windows: 16 MiB
// per stream, 64 MiB per connection, and the largest frames HTTP/2 allows. What bounds the
// export then is the server, not a receiver that acknowledges every 64 KiB (node:http2's and
// grpc-js's defaults). Frames are decoded by the contract's generated code, as in row 4. Like a
// grpc-js channel, the client keeps one connection per server for every call: a connection per
// call paid a TCP and HTTP/2 handshake and started each export under the default 64 KiB
// connection window until the server read the client's WINDOW_UPDATE.
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { fromBinary, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { grpcFrame, whenGrpcCallEnds } from './grpc-h2c-call.js';

const WINDOW = 16 * 1024 * 1024;

export interface GrpcStreamCall<I extends DescMessage, O extends DescMessage> {
  baseUrl: string;
  path: string;
  headers: Record<string, string>;
  input: I;
  output: O;
  message: MessageShape<I>;
  onMessage: (message: MessageShape<O>) => void;
}

const sessions = new Map<string, ClientHttp2Session>();

/** The open connection to `baseUrl`, or a new one with the large windows. */
function sessionFor(baseUrl: string): ClientHttp2Session {
  const open = sessions.get(baseUrl);
  if (open && !open.closed && !open.destroyed) return open;
  const session = connect(baseUrl, {
    settings: { initialWindowSize: WINDOW, maxFrameSize: WINDOW - 1 },
  });
  session.once('connect', () => session.setLocalWindowSize(4 * WINDOW));
  // An idle connection must not keep the worker alive, and a broken one is replaced.
  session.unref();
  const forget = () => {
    if (sessions.get(baseUrl) === session) sessions.delete(baseUrl);
  };
  session.on('error', forget);
  session.on('close', forget);
  session.on('goaway', forget);
  sessions.set(baseUrl, session);
  return session;
}

/** Resolves when the stream ends with grpc-status 0; rejects with the status otherwise. */
export function grpcH2cServerStream<I extends DescMessage, O extends DescMessage>(
  call: GrpcStreamCall<I, O>,
): Promise<void> {
  const body = grpcFrame(toBinary(call.input, call.message));
  return new Promise((resolve, reject) => {
    const session = sessionFor(call.baseUrl);
    const stream = session.request({
      [constants.HTTP2_HEADER_METHOD]: 'POST',
      [constants.HTTP2_HEADER_PATH]: call.path,
      'content-type': 'application/grpc+proto',
      te: 'trailers',
      ...call.headers,
    });
    // Received pieces are kept as they come and joined once per complete message (a 64 KiB
    // message arrives as several DATA frames): no copy per piece.
    const pieces: Buffer[] = [];
    let pending = 0;
    let need = 5; // bytes of the next message's prefix, then of its prefix + payload
    stream.on('data', (chunk: Buffer) => {
      pieces.push(chunk);
      pending += chunk.length;
      while (pending >= need) {
        let joined = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, pending);
        if (need === 5) need = 5 + joined.readUInt32BE(1);
        if (pending < need) {
          pieces.splice(0, pieces.length, joined);
          break;
        }
        call.onMessage(fromBinary(call.output, joined.subarray(5, need)));
        joined = joined.subarray(need);
        pending -= need;
        need = 5;
        pieces.splice(0, pieces.length, ...(joined.length > 0 ? [joined] : []));
      }
    });
    stream.on('error', reject);
    whenGrpcCallEnds(stream, (error) => {
      if (error) reject(error);
      else resolve();
    });
    stream.end(body);
  });
}
