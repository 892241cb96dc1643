import { Code, ConnectError } from '@connectrpc/connect';

/** What browsers say when fetch never got an answer (Chromium, Firefox, Safari). */
const NO_ANSWER = /failed to fetch|networkerror|network error|load failed|network connection/i;

/**
 * Unavailable said by something in front of the server, or by the server on its way out: a
 * proxy's bare HTTP 502/503/504 ("HTTP 503"), Envoy with no replica left ("upstream connect
 * error…", "no healthy upstream"), or the server stopping. Not the server's own Unavailable
 * about something behind it (an object store that does not answer): the server is there.
 */
const SERVER_GONE = /^HTTP 5\d\d$|upstream|server is (stopping|shutting down)/i;

/**
 * A call that never reached the server, or whose answer never came back: fetch's TypeError
 * (connection refused, reset, DNS), wrapped by connect as Unknown, or Unavailable from a proxy
 * or a stopping server (above). Not a refusal the server made and explained (PermissionDenied,
 * NotFound, its own Unavailable about storage …): those mean it is there.
 */
export function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof ConnectError)) return false;
  if (error.code === Code.Unavailable) return SERVER_GONE.test(error.rawMessage);
  if (error.code !== Code.Unknown) return false;
  if (error.cause instanceof TypeError) return true;
  return NO_ANSWER.test(error.rawMessage);
}

/** The same test on anything a transport throws, before connect wraps it. */
export function isTransportFailure(error: unknown): boolean {
  return isNetworkFailure(ConnectError.from(error));
}
