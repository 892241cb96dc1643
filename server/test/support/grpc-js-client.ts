import {
  fromBinary,
  toBinary,
  type DescMessage,
  type DescService,
  type MessageShape,
} from '@bufbuild/protobuf';
import * as grpc from '@grpc/grpc-js';

/**
 * An independent gRPC client (@grpc/grpc-js: its own HTTP/2 and framing) for one service, with
 * protobuf-es doing only the (de)serialisation. Unary calls resolve with the response or reject
 * with the grpc-js ServiceError (its `code` is the gRPC status code).
 */
export function createGrpcJsClient(service: DescService, address: string) {
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const method of service.methods) {
    definition[method.localName] = {
      path: `/${service.typeName}/${method.name}`,
      requestStream:
        method.methodKind === 'client_streaming' || method.methodKind === 'bidi_streaming',
      responseStream:
        method.methodKind === 'server_streaming' || method.methodKind === 'bidi_streaming',
      requestSerialize: (message: unknown) =>
        Buffer.from(toBinary(method.input, message as MessageShape<DescMessage>)),
      requestDeserialize: (bytes: Buffer) => fromBinary(method.input, bytes),
      responseSerialize: (message: unknown) =>
        Buffer.from(toBinary(method.output, message as MessageShape<DescMessage>)),
      responseDeserialize: (bytes: Buffer) => fromBinary(method.output, bytes),
    };
  }
  const Client = grpc.makeGenericClientConstructor(
    definition as grpc.ServiceDefinition,
    service.typeName,
  );
  const client = new Client(address.replace(/^http:\/\//, ''), grpc.credentials.createInsecure());

  return {
    raw: client,
    unary<O>(methodName: string, request: unknown, metadata = new grpc.Metadata()): Promise<O> {
      return new Promise((resolve, reject) => {
        const fn = (client as unknown as Record<string, (...args: unknown[]) => unknown>)[
          methodName
        ];
        if (!fn) throw new Error(`no method ${methodName}`);
        fn.call(client, request, metadata, (error: grpc.ServiceError | null, response: O) =>
          error ? reject(error) : resolve(response),
        );
      });
    },
    close() {
      client.close();
    },
  };
}
