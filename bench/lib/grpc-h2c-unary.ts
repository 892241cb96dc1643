// A lean native gRPC (h2c) client for unary calls on one HTTP/2 connection, as lean as row 13's
// stream client: the request framed once, the answer decoded by the contract's generated code.
// connect-node's client spends more CPU per call than the server's transport does, and on two
// shared cores that CPU comes out of the server's share.
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import {
  create,
  fromBinary,
  toBinary,
  type DescMessage,
  type DescMethodUnary,
  type MessageInitShape,
  type MessageShape,
} from '@bufbuild/protobuf';
import { grpcFrame, whenGrpcCallEnds } from './grpc-h2c-call.js';

export class GrpcH2cUnary {
  private readonly session: ClientHttp2Session;

  constructor(
    baseUrl: string,
    private readonly headers: Record<string, string>,
  ) {
    this.session = connect(baseUrl);
    this.session.on('error', () => undefined); // each call's stream reports its own failure
  }

  /** Calls `method` with `message`; rejects unless the call ends with grpc-status 0. */
  call<I extends DescMessage, O extends DescMessage>(
    method: DescMethodUnary<I, O>,
    message: MessageInitShape<I>,
  ): Promise<MessageShape<O>> {
    const path = `/${method.parent.typeName}/${method.name}`;
    const body = grpcFrame(toBinary(method.input, create(method.input, message)));
    return new Promise((resolve, reject) => {
      const stream = this.session.request({
        [constants.HTTP2_HEADER_METHOD]: 'POST',
        [constants.HTTP2_HEADER_PATH]: path,
        'content-type': 'application/grpc+proto',
        te: 'trailers',
        ...this.headers,
      });
      const pieces: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => pieces.push(chunk));
      stream.on('error', reject);
      whenGrpcCallEnds(stream, (error) => {
        if (error) {
          reject(error);
          return;
        }
        const joined = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
        if (joined.length < 5 || joined.length !== 5 + joined.readUInt32BE(1)) {
          reject(new Error(`gRPC h2c call answered ${joined.length} bytes, not one message`));
          return;
        }
        resolve(fromBinary(method.output, joined.subarray(5)));
      });
      stream.end(body);
    });
  }

  close(): void {
    this.session.close();
  }
}
