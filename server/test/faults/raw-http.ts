// Senders for the HTTP-level fuzzer. HTTP/1.1 goes over a bare socket, so request lines and
// header lines reach the server exactly as generated (Node's http client would refuse most of
// them). HTTP/2 goes through Node's client, which refuses some headers itself: those cases are
// reported as not sent rather than counted.
import http2 from 'node:http2';
import net from 'node:net';
import type { HttpFuzzCase } from './malformed-requests-http.js';

/** What the server did with one request. */
export type HttpOutcome =
  | { kind: 'status'; status: number }
  | { kind: 'reset'; code: number }
  | { kind: 'closed' }
  | { kind: 'not-sent'; reason: string };

const FRAMING = new Set(['content-length', 'transfer-encoding']);

/** The raw bytes of an HTTP/1.x request for a case. */
export function rawHttp1Request(fuzz: HttpFuzzCase, hostPort: string): Buffer {
  const lines = [`${fuzz.method} ${fuzz.target} HTTP/1.${fuzz.http10 ? 0 : 1}`];
  const named = (name: string) => fuzz.headers.some(([n]) => n.toLowerCase() === name);
  if (fuzz.withHost && !named('host')) lines.push(`Host: ${hostPort}`);
  for (const [name, value] of fuzz.headers) lines.push(`${name}: ${value}`);
  // A case that fights over framing gets no honest length: the parser must refuse it.
  if (!fuzz.headers.some(([n]) => FRAMING.has(n.toLowerCase()))) {
    lines.push(`Content-Length: ${fuzz.body.length}`);
  }
  lines.push('Connection: close', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), fuzz.body]);
}

/** Sends a case over a fresh socket and reads the status line of the answer. */
export function sendRawHttp1(
  port: number,
  fuzz: HttpFuzzCase,
  timeoutMs = 10_000,
): Promise<HttpOutcome> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const done = (outcome: HttpOutcome) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer in ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => socket.write(rawHttp1Request(fuzz, `127.0.0.1:${port}`)));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      if (match) done({ kind: 'status', status: Number(match[1]) });
      else if (received.length > 12) done({ kind: 'closed' });
    });
    // The server may reset the socket while we are still writing a request it refused.
    socket.on('error', () => done({ kind: 'closed' }));
    socket.on('close', () => done({ kind: 'closed' }));
  });
}

/** Sends a case as one stream of an h2c session. */
export function sendH2Case(
  session: http2.ClientHttp2Session,
  fuzz: HttpFuzzCase,
  timeoutMs = 10_000,
): Promise<HttpOutcome> {
  const headers: http2.OutgoingHttpHeaders = { ':method': fuzz.method, ':path': fuzz.target };
  for (const [name, value] of fuzz.headers) headers[name] = value;
  // Node's client adds :authority unless a Host is given; an empty Host is the way to send none.
  if (!fuzz.withHost) headers.host = '';
  let stream: http2.ClientHttp2Stream;
  try {
    stream = session.request(headers, { endStream: fuzz.body.length === 0 });
  } catch (error) {
    return Promise.resolve({ kind: 'not-sent', reason: (error as Error).message });
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: HttpOutcome | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(() => settle(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    stream.on('response', (h) => settle({ kind: 'status', status: Number(h[':status']) }));
    stream.on('error', () => settle({ kind: 'reset', code: stream.rstCode ?? -1 }));
    stream.on('close', () => settle({ kind: 'reset', code: stream.rstCode ?? -1 }));
    if (fuzz.body.length > 0) stream.end(fuzz.body);
  });
}

/** Bytes on the h2c port that are no valid HTTP/2 connection (no preface, or junk frames). */
export function sendH2Garbage(port: number, bytes: Buffer, lingerMs = 50): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(finish, lingerMs);
    socket.on('connect', () => socket.write(bytes));
    socket.on('error', finish);
    socket.on('close', finish);
  });
}
