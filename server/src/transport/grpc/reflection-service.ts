import {
  create,
  fromBinary,
  toBinary,
  type DescFile,
  type DescService,
  type MessageInitShape,
} from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  ServerReflection,
  ServerReflectionRequestSchema,
  ServerReflectionResponseSchema,
  type ServerReflectionRequest,
  type ServerReflectionResponse,
} from '@store/contract/gen/grpc/reflection/v1/reflection_pb.js';
// v1alpha is deprecated upstream and served on purpose, for the clients that still ask it.
/* eslint-disable @typescript-eslint/no-deprecated */
import {
  ServerReflection as ServerReflectionV1Alpha,
  ServerReflectionRequestSchema as V1AlphaRequestSchema,
  ServerReflectionResponseSchema as V1AlphaResponseSchema,
} from '@store/contract/gen/grpc/reflection/v1alpha/reflection_pb.js';

/** Both reflection services, as reflection itself lists them. */
export const REFLECTION_SERVICES: readonly DescService[] = [
  ServerReflection,
  ServerReflectionV1Alpha,
];

type ResponseInit = MessageInitShape<typeof ServerReflectionResponseSchema>;

/**
 * grpc.reflection.v1 and its deprecated predecessor v1alpha, so grpcurl, `buf curl` and the
 * stock grpcio reflection clients (which still ask v1alpha, as Go, Java and Python servers
 * serve it) work without proto files: it answers from the descriptors compiled into the server,
 * with each file's transitive dependencies.
 */
export function registerReflectionService(
  router: ConnectRouter,
  services: readonly DescService[],
): void {
  const files = new Map<string, DescFile>();
  const symbols = new Map<string, DescFile>();
  const addFile = (file: DescFile) => {
    if (files.has(file.name + '.proto')) return;
    files.set(file.name + '.proto', file);
    for (const dep of file.dependencies) addFile(dep);
    for (const message of file.messages) symbols.set(message.typeName, file);
    for (const e of file.enums) symbols.set(e.typeName, file);
    for (const ext of file.extensions) symbols.set(ext.typeName, file);
    for (const service of file.services) {
      symbols.set(service.typeName, file);
      for (const method of service.methods) symbols.set(`${service.typeName}.${method.name}`, file);
    }
  };
  for (const service of services) addFile(service.file);
  // Nested types resolve to their top-level file.
  for (const file of [...files.values()]) {
    const visit = (m: DescFile['messages'][number]) => {
      symbols.set(m.typeName, file);
      m.nestedMessages.forEach(visit);
      for (const e of m.nestedEnums) symbols.set(e.typeName, file);
    };
    file.messages.forEach(visit);
  }

  const withDependencies = (file: DescFile): Uint8Array[] => {
    const out: Uint8Array[] = [];
    const seen = new Set<string>();
    const visit = (f: DescFile) => {
      if (seen.has(f.name)) return;
      seen.add(f.name);
      out.push(toBinary(FileDescriptorProtoSchema, f.proto));
      f.dependencies.forEach(visit);
    };
    visit(file);
    return out;
  };

  const answer = (request: ServerReflectionRequest): ResponseInit => {
    const base = { validHost: request.host, originalRequest: request };
    const notFound = (what: string): ResponseInit => ({
      ...base,
      messageResponse: {
        case: 'errorResponse',
        value: { errorCode: 5, errorMessage: `${what} not found` },
      },
    });
    const files_ = (file: DescFile | undefined, what: string): ResponseInit =>
      file
        ? {
            ...base,
            messageResponse: {
              case: 'fileDescriptorResponse',
              value: { fileDescriptorProto: withDependencies(file) },
            },
          }
        : notFound(what);
    const req = request.messageRequest;
    switch (req.case) {
      case 'listServices':
        return {
          ...base,
          messageResponse: {
            case: 'listServicesResponse',
            value: { service: services.map((s) => ({ name: s.typeName })) },
          },
        };
      case 'fileByFilename':
        return files_(files.get(req.value), `file ${req.value}`);
      case 'fileContainingSymbol':
        return files_(symbols.get(req.value), `symbol ${req.value}`);
      case 'fileContainingExtension':
        return notFound(`extension ${req.value.extensionNumber} of ${req.value.containingType}`);
      case 'allExtensionNumbersOfType':
        return {
          ...base,
          messageResponse: {
            case: 'allExtensionNumbersResponse',
            value: { baseTypeName: req.value, extensionNumber: [] },
          },
        };
      default:
        return {
          ...base,
          messageResponse: {
            case: 'errorResponse',
            value: { errorCode: 3, errorMessage: 'empty reflection request' },
          },
        };
    }
  };

  router.service(ServerReflection, {
    async *serverReflectionInfo(requests) {
      for await (const request of requests) {
        yield answer(request) as ServerReflectionResponse;
      }
    },
  });
  // v1alpha's messages are v1's under another package, field for field: one answer serves both,
  // converted through the wire form.
  router.service(ServerReflectionV1Alpha, {
    async *serverReflectionInfo(requests) {
      for await (const request of requests) {
        const asV1 = fromBinary(
          ServerReflectionRequestSchema,
          toBinary(V1AlphaRequestSchema, request),
        );
        const response = create(ServerReflectionResponseSchema, answer(asV1));
        yield fromBinary(V1AlphaResponseSchema, toBinary(ServerReflectionResponseSchema, response));
      }
    },
  });
}
