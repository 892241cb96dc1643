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

  /** For a limit or cap: seconds after which a retry may pass (sent as `retry-after`). */
  retryAfterSeconds?: number;
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

/**
 * Over a cap or rate limit: ResourceExhausted. The message names the limit and when to retry;
 * the transport also sends the seconds as a `retry-after` header for clients that back off.
 */
export function resourceExhausted(message: string, retryAfterSeconds: number): StoreError {
  const error = new StoreError('resource_exhausted', message);
  error.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return error;
}

/** Whether a value is a StoreError (also across module copies). */
export function isStoreError(value: unknown): value is StoreError {
  return value instanceof StoreError;
}
