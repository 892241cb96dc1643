import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { Logger } from '../logging/logger.js';

type AnyRequest = IncomingMessage | Http2ServerRequest;
type AnyResponse = ServerResponse | Http2ServerResponse;
export type RequestHandler = (req: AnyRequest, res: AnyResponse) => unknown;

/**
 * Why a request cannot be served at all, or undefined when it can. Node's parsers let through
 * request targets and Host values that later code (connect's `new URL(path, authority)`, the
 * static files' `decodeURIComponent`) throws on; each of those throws used to end the process.
 */
export function malformedRequestReason(req: AnyRequest): string | undefined {
  const target = req.url ?? '';
  // Origin-form only ("/path?query"): an absolute or authority form, `*`, or a target whose path
  // starts with "//" (read as a scheme-relative URL) names no resource here.
  if (!target.startsWith('/') || target.startsWith('//')) return 'request target is not a path';
  const path = target.split('?', 1)[0] as string;
  try {
    decodeURIComponent(path);
  } catch {
    return 'request path does not decode';
  }
  if (/%00|\0/.test(path)) return 'request path holds a NUL';
  const authority = requestAuthority(req);
  if (authority === undefined) return 'request has no Host';
  if (!validAuthority(authority)) return 'Host is not a valid host[:port]';
  return undefined;
}

/** The Host (HTTP/1.1) or :authority (HTTP/2, falling back to Host) of a request. */
export function requestAuthority(req: AnyRequest): string | undefined {
  const h2 = 'authority' in req ? (req.authority as string | undefined) : undefined;
  const value = h2 || req.headers.host;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function validAuthority(authority: string): boolean {
  if (!/^[A-Za-z0-9._~\-[\]:%]+$/.test(authority)) return false;
  try {
    const url = new URL(`http://${authority}/`);
    return url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** Answers a request the server cannot serve with a plain-text status, if nothing was sent yet. */
export function answerPlain(res: AnyResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = `${message}\n`;
  // HTTP/1.1 closes the connection: whatever follows a request we could not read is suspect.
  const close = 'stream' in res ? {} : { connection: 'close' };
  (res as ServerResponse)
    .writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      ...close,
    })
    .end(body);
}

/**
 * Wraps a request listener so that no request can end the process: a request Node parsed but
 * this server cannot read is answered 400 before any handler sees it, one `admit` refuses (the
 * Host allowlist) gets the status `admit` names, and a handler that throws
 * (or whose promise rejects) is logged and answered 500 — or, once the response started, its
 * stream is reset.
 */
export function guardRequests(
  handler: RequestHandler,
  logger: Logger,
  admit?: (req: AnyRequest) => { status: number; message: string } | undefined,
): RequestHandler {
  const fail = (req: AnyRequest, res: AnyResponse, error: unknown) => {
    logger.error({ err: error, method: req.method, url: req.url }, 'request handler failed');
    try {
      answerPlain(res, 500, 'internal error');
    } catch {
      res.destroy();
    }
  };
  return (req, res) => {
    try {
      const reason = malformedRequestReason(req);
      const refusal = reason === undefined ? admit?.(req) : { status: 400, message: '' };
      if (refusal) {
        // Read and drop the body: an HTTP/2 stream whose body is never read never closes.
        req.resume();
        answerPlain(res, refusal.status, reason ? `bad request: ${reason}` : refusal.message);
        return;
      }
      const result = handler(req, res);
      if (result instanceof Promise) result.catch((error: unknown) => fail(req, res, error));
    } catch (error) {
      fail(req, res, error);
    }
  };
}
