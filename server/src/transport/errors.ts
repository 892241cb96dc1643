import { Code, ConnectError } from '@connectrpc/connect';
import { StoreError, type StoreErrorCode } from '../engines/errors.js';
import type { Logger } from '../logging/logger.js';

const CODES: Record<StoreErrorCode, Code> = {
  invalid_argument: Code.InvalidArgument,
  not_found: Code.NotFound,
  already_exists: Code.AlreadyExists,
  failed_precondition: Code.FailedPrecondition,
  permission_denied: Code.PermissionDenied,
  unauthenticated: Code.Unauthenticated,
  resource_exhausted: Code.ResourceExhausted,
  data_loss: Code.DataLoss,
  unimplemented: Code.Unimplemented,
  aborted: Code.Aborted,
  cancelled: Code.Canceled,
  unavailable: Code.Unavailable,
  internal: Code.Internal,
};

/** The gRPC code of an engine error code. */
export function grpcCodeOf(code: StoreErrorCode): Code {
  return CODES[code];
}

/**
 * Maps whatever a handler threw to the status the caller sees (DESIGN.md §3, Errors): an engine's
 * StoreError keeps its code and message; a ConnectError passes through; anything else is Internal
 * with a generic message, and its detail goes to the log only.
 */
export function toConnectError(error: unknown, logger: Logger, method: string): ConnectError {
  if (error instanceof ConnectError) return error;
  if (error instanceof StoreError) {
    const retryAfter = error.retryAfterSeconds;
    return new ConnectError(
      error.message,
      CODES[error.code],
      retryAfter === undefined ? undefined : { 'retry-after': String(retryAfter) },
    );
  }
  logger.error({ err: error, method }, 'unexpected fault in handler');
  return new ConnectError('internal error', Code.Internal);
}
