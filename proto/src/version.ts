/** Version of the gRPC binding both specs describe (spec 000 and 001, Versioning). */
export const STORE_BINDING_VERSION = '9.9.0';
