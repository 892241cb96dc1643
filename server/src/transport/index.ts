// What the HTTP layer may use of the transport (eslint: http reaches transport only through here):
// the context key it fills with the socket's peer, and the wrapper that corrects connect's status
// for malformed requests.
export { peerAddressKey } from './client-address.js';
export { correctMalformedInputStatus } from './connect/malformed-input-status.js';
