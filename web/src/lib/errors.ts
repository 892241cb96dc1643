import { Code, ConnectError } from '@connectrpc/connect';

/** The gRPC code name of any failure ("FailedPrecondition"); Unknown for non-RPC errors. */
export function errorCodeName(error: unknown): string {
  return Code[ConnectError.from(error).code];
}

/**
 * How every error reads in the console: the gRPC code name and the server's message
 * ("FailedPrecondition: backup b-1 has dependants"), as DESIGN.md §6 asks.
 */
export function describeError(error: unknown): string {
  // The typed clients refuse bad arguments before sending (TypeError, ArgumentError, RangeError).
  if (error instanceof Error && !(error instanceof ConnectError)) {
    return `${error.name}: ${error.message}`;
  }
  const connectError = ConnectError.from(error);
  const message = connectError.rawMessage || 'no message';
  return `${Code[connectError.code]}: ${message}`;
}

/** Connect's lower-snake spelling of a code (an operation's error.code) as the name above. */
export function codeNameFromWire(code: string): string {
  const name = code
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return name || 'Unknown';
}

/** Failures a retry cannot fix; everything else (Unavailable, DeadlineExceeded …) may retry. */
export function isPermanent(error: unknown): boolean {
  // Not an RPC failure: a client-side check or a bug, which a retry repeats.
  if (!(error instanceof ConnectError)) return true;
  const code = ConnectError.from(error).code;
  return [
    Code.Unauthenticated,
    Code.PermissionDenied,
    Code.InvalidArgument,
    Code.NotFound,
    Code.FailedPrecondition,
    Code.AlreadyExists,
    Code.Unimplemented,
    Code.OutOfRange,
    Code.DataLoss,
    Code.ResourceExhausted,
  ].includes(code);
}
