import { toBinary, type DescFile, type DescService } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  ServerReflection,
  type ServerReflectionRequest,
  type ServerReflectionResponse,
} from '@store/contract/gen/grpc/reflection/v1/reflection_pb.js';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { ServerReflectionResponseSchema } from '@store/contract/gen/grpc/reflection/v1/reflection_pb.js';

type ResponseInit = MessageInitShape<typeof ServerReflectionResponseSchema>;

/**
 * grpc.reflection.v1 so grpcurl and `buf curl` work without proto files: it answers from the
 * descriptors compiled into the server, with each file's transitive dependencies.
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
}
