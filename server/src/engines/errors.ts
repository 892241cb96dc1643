/**
 * Errors the engines raise. Engines know nothing of gRPC: the transport binding maps each code to
 * the gRPC status of the same name (DESIGN.md §3, Errors).
 */
export type StoreErrorCode =
  | 'invalid_argument'
  | 'not_found'
  | 'already_exists'
  | 'failed_precondition'
  | 'permission_denied'
  | 'unauthenticated'
  | 'resource_exhausted'
  | 'data_loss'
  | 'unimplemented'
  | 'aborted'
  | 'cancelled'
  | 'unavailable'
  | 'internal';

/** A failure an engine reports on purpose, with a message safe to show the caller. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    /** The request field at fault, for InvalidArgument. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** A malformed request field: InvalidArgument, with the field named. */
export function invalidArgument(field: string, message: string): StoreError {
  return new StoreError('invalid_argument', `${field}: ${message}`, field);
}

/** The state of the target forbids the call: FailedPrecondition. */
export function failedPrecondition(message: string): StoreError {
  return new StoreError('failed_precondition', message);
}

/** The call names something that does not exist: NotFound. */
export function notFound(message: string): StoreError {
  return new StoreError('not_found', message);
}

/** Whether a value is a StoreError (also across module copies). */
export function isStoreError(value: unknown): value is StoreError {
  return value instanceof StoreError;
}
