// What the HTTP layer may use of the transport (eslint: http reaches transport only through here):
// the context key it fills with the socket's peer, the wrapper that corrects connect's status
// for malformed requests, and gRPC's own encoding of grpc-message.
export { peerAddressKey } from './client-address.js';
export { correctMalformedInputStatus } from './connect/malformed-input-status.js';
export { encodeGrpcMessage, writeGrpcMessagesPerSpec } from './connect/grpc-message-encoding.js';
