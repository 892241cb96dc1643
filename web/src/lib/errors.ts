import { Code, ConnectError } from '@connectrpc/connect';
import { isNetworkFailure } from './connectivity/network-failure';
import { asSentence, NETWORK_SENTENCES, sentencesFor } from './error-sentences';

/** The gRPC code name of any failure ("FailedPrecondition"); Unknown for non-RPC errors. */
export function errorCodeName(error: unknown): string {
  return Code[ConnectError.from(error).code];
}

/**
 * A failure as the console shows it (DESIGN.md §6): what happened and what to do next, in
 * sentences, with the gRPC code and the server's raw message kept for a details disclosure.
 */
export interface ErrorExplanation {
  /** What happened, a sentence. */
  what: string;
  /** What to do next, a sentence. */
  next: string;
  /** The gRPC code name ("FailedPrecondition"), or the error type of a check made before sending. */
  code: string;
  /** The server's message as sent ("" when it sent none). */
  raw: string;
}

/** The errors a typed client throws when it checks the arguments, before anything is sent. */
const CHECKS_BEFORE_SENDING = new Set(['ArgumentError', 'TypeError', 'RangeError']);

/** Any thrown failure: an RPC error, or a typed client's check of the arguments before sending. */
export function explainError(error: unknown): ErrorExplanation {
  // The typed clients refuse bad arguments before sending (TypeError, ArgumentError, RangeError).
  if (error instanceof Error && !(error instanceof ConnectError)) {
    const sentence = asSentence(error.message);
    if (CHECKS_BEFORE_SENDING.has(error.name)) {
      return {
        what: `The console refused the request before sending it${sentence ? `: ${lower(sentence)}` : '.'}`,
        next: 'Correct the value and try again.',
        code: error.name,
        raw: error.message,
      };
    }
    // The console's own checks of an answer (a download whose bytes do not match): their
    // messages are written as sentences for the reader already.
    return {
      what: sentence || 'Something failed in the console.',
      next: 'Try again; if it happens again, reload the page.',
      code: error.name,
      raw: error.message,
    };
  }
  const connectError = ConnectError.from(error);
  // fetch's "Failed to fetch" comes wrapped as Unknown: it is the network, not the server.
  if (isNetworkFailure(connectError)) {
    return {
      ...NETWORK_SENTENCES,
      code: Code[connectError.code],
      raw: connectError.rawMessage,
    };
  }
  return explain(connectError.code, connectError.rawMessage);
}

/** An operation's recorded error ({ code: "failed_precondition", message }). */
export function explainOperationError(error: { code: string; message: string }): ErrorExplanation {
  return explain(codeFromWire(error.code), error.message);
}

/** One line of text, for places that have no room for the disclosure (toasts, titles). */
export function describeError(error: unknown): string {
  const { what, next } = explainError(error);
  return `${what} ${next}`;
}

export function describeOperationError(error: { code: string; message: string }): string {
  const { what, next } = explainOperationError(error);
  return `${what} ${next}`;
}

/** The code and the raw message as the server sent them, for the details disclosure. */
export function technicalText(explanation: ErrorExplanation): string {
  return `${explanation.code}: ${explanation.raw || 'no message'}`;
}

function explain(code: Code, raw: string): ErrorExplanation {
  return { ...sentencesFor(code, raw), code: Code[code], raw };
}

function lower(sentence: string): string {
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}

/** Connect's lower-snake spelling of a code (an operation's error.code) as the name above. */
export function codeNameFromWire(code: string): string {
  const name = code
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return name || 'Unknown';
}

/** "failed_precondition" → Code.FailedPrecondition; the server's "cancelled" is Canceled. */
export function codeFromWire(code: string): Code {
  if (code === 'cancelled') return Code.Canceled;
  const value = (Code as unknown as Record<string, unknown>)[codeNameFromWire(code)];
  return typeof value === 'number' ? (value as Code) : Code.Unknown;
}

/** An operation that ended because someone cancelled it: not a failure to show in red. */
export function isCancellation(error: { code: string } | undefined): boolean {
  return error !== undefined && codeFromWire(error.code) === Code.Canceled;
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
