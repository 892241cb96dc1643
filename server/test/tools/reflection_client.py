"""grpcio's stock reflection client (grpcio-reflection's ProtoReflectionDescriptorDatabase, which
asks grpc.reflection.v1alpha) against the server: lists the services and resolves one of them
into its methods, as Python tooling does. Prints JSON; exits non-zero on any gRPC error."""

import json
import sys

import grpc
from google.protobuf.descriptor_pool import DescriptorPool
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)

target, service_name = sys.argv[1], sys.argv[2]
with grpc.insecure_channel(target) as channel:
    database = ProtoReflectionDescriptorDatabase(channel)
    services = list(database.get_services())
    service = DescriptorPool(database).FindServiceByName(service_name)
    print(json.dumps({"services": services, "methods": [m.name for m in service.methods]}))
