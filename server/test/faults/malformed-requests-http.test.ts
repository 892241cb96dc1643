import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newStorageLocation,
  removeStorageLocation,
  type TestStorageLocation,
} from '../support/test-storage.js';
import { malformedHttpRequest, type HttpFuzzCase } from './malformed-requests-http.js';
import { sendH2Case, sendH2Garbage, sendRawHttp1, type HttpOutcome } from './raw-http.js';
import { envelope, sendH2 } from './raw-rpc.js';
import { SeededRandom } from './seeded-random.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';

const BATCHES = 10;
const PER_BATCH = 1_100;
const GARBAGE_SOCKETS_PER_BATCH = 30;
const CONCURRENCY = 32;
// FUZZ_SEED=<n> replays a reported run.
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

const port = (url: string) => Number(new URL(url).port);

/** Health on both listeners: GET /healthz over HTTP/1.1 and grpc.health.v1 Check over h2c. */
async function healthOnBothListeners(server: ServerProcess): Promise<[number, number | undefined]> {
  const httpStatus = await new Promise<number>((resolve, reject) => {
    http
      .get(`${server.httpUrl}/healthz`, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
  const session = http2.connect(server.grpcUrl);
  try {
    const outcome = await sendH2(
      session,
      '/grpc.health.v1.Health/Check',
      { 'content-type': 'application/grpc' },
      envelope(0, new Uint8Array(0)),
      10_000,
    );
    return [httpStatus, outcome.grpcCode];
  } finally {
    session.close();
  }
}

/**
 * A request compressed with an encoding the server does not offer: the Connect protocol answers
 * it Unimplemented, which it sends as HTTP 501 (gRPC sends the same code in a 200's trailers).
 */
function asksUnsupportedCompression(fuzz: HttpFuzzCase): boolean {
  return fuzz.headers.some(
    ([name, value]) =>
      name.toLowerCase() === 'content-encoding' &&
      !['gzip', 'identity'].includes(value.trim().toLowerCase()),
  );
}

/** A proper answer: any status but a server error, or a protocol-level refusal. */
function problemWith(outcome: HttpOutcome, fuzz: HttpFuzzCase): string | undefined {
  if (outcome.kind === 'status' && outcome.status === 501 && asksUnsupportedCompression(fuzz)) {
    return undefined;
  }
  if (outcome.kind === 'status' && outcome.status >= 500 && outcome.status !== 505) {
    return `HTTP ${outcome.status}`;
  }
  if (outcome.kind === 'closed') return 'connection closed without an answer';
  return undefined;
}

describe('malformed HTTP on both listeners', () => {
  let location: TestStorageLocation;
  let server: ServerProcess;
  beforeAll(async () => {
    location = newStorageLocation('sqlite');
    // A built console, so requests reach the static-files fallback (it answers 503 without one).
    const staticDir = join(location.dataDir, 'console');
    mkdirSync(join(staticDir, 'assets'), { recursive: true });
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(staticDir, 'assets', 'x.js'), 'export {};');
    server = await spawnServer(location, { env: { STORE_STATIC_DIR: staticDir } });
  });
  afterAll(async () => {
    await server?.kill();
    if (location) await removeStorageLocation(location);
  });

  it('a path that does not decode, "//", no Host and a Host no URL parser takes are answered 400, and the server lives', async () => {
    const base = { headers: [], withHost: true, http10: false, body: Buffer.alloc(0), label: '' };
    const cases: HttpFuzzCase[] = [
      { ...base, listener: 'http1', method: 'GET', target: '/%E0' },
      { ...base, listener: 'http1', method: 'GET', target: '//' },
      { ...base, listener: 'http1', method: 'GET', target: '/healthz%' },
      {
        ...base,
        listener: 'http1',
        method: 'POST',
        target: '/store.identity.v1.IdentityService/WhoAmI',
        withHost: false,
        http10: true,
      },
      {
        ...base,
        listener: 'http1',
        method: 'POST',
        target: '/store.identity.v1.IdentityService/WhoAmI',
        headers: [['Host', 'a b']],
      },
    ];
    const h2Cases: HttpFuzzCase[] = [
      { ...base, listener: 'h2c', method: 'GET', target: '/%E0' },
      {
        ...base,
        listener: 'h2c',
        method: 'POST',
        target: '/grpc.health.v1.Health/Check',
        headers: [['host', '%']],
      },
    ];
    const statuses: number[] = [];
    for (const fuzz of cases) {
      const outcome = await sendRawHttp1(port(server.httpUrl), fuzz);
      statuses.push(outcome.kind === 'status' ? outcome.status : -1);
    }
    const session = http2.connect(server.grpcUrl);
    for (const fuzz of h2Cases) {
      const outcome = await sendH2Case(session, fuzz);
      statuses.push(outcome.kind === 'status' ? outcome.status : -1);
    }
    session.close();
    expect(server.alive(), server.stderr()).toBe(true);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 400]);
    expect(await healthOnBothListeners(server)).toEqual([200, 0]);
  });

  it(`${BATCHES * PER_BATCH} malformed paths, methods and headers get an answer that is no server error, and health answers after each batch`, async () => {
    console.log(`malformed-HTTP fuzzing with FUZZ_SEED=${SEED}`);
    const rng = new SeededRandom(SEED);
    const failures: string[] = [];
    const statuses = new Map<string, number>();
    let sent = 0;
    let session = http2.connect(server.grpcUrl);
    session.on('error', () => undefined);
    const started = Date.now();
    for (let batch = 0; batch < BATCHES; batch++) {
      // Generated up front, so the cases do not depend on the order answers arrive in.
      const cases = Array.from({ length: PER_BATCH }, () => malformedHttpRequest(rng));
      const garbage = Array.from({ length: GARBAGE_SOCKETS_PER_BATCH }, () => {
        const junk = Buffer.from(rng.bytes(1 + rng.int(200)));
        return rng.chance(0.5)
          ? Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), junk])
          : junk;
      });
      let next = 0;
      const worker = async () => {
        while (next < cases.length) {
          const index = next++;
          const fuzz = cases[index] as HttpFuzzCase;
          let outcome: HttpOutcome;
          try {
            if (fuzz.listener === 'http1') {
              outcome = await sendRawHttp1(port(server.httpUrl), fuzz);
            } else {
              if (session.closed || session.destroyed) {
                session = http2.connect(server.grpcUrl);
                session.on('error', () => undefined);
              }
              outcome = await sendH2Case(session, fuzz);
            }
          } catch (error) {
            failures.push(`batch ${batch} #${index} ${fuzz.label}: ${String(error)}`);
            continue;
          }
          if (outcome.kind === 'not-sent') continue;
          sent++;
          const key = outcome.kind === 'status' ? String(outcome.status) : outcome.kind;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          const problem = problemWith(outcome, fuzz);
          if (problem) failures.push(`batch ${batch} #${index} ${fuzz.label}: ${problem}`);
        }
      };
      await Promise.all([
        ...Array.from({ length: CONCURRENCY }, worker),
        ...garbage.map((bytes) => sendH2Garbage(port(server.grpcUrl), bytes)),
      ]);
      expect(server.alive(), `FUZZ_SEED=${SEED} batch ${batch}: ${server.stderr()}`).toBe(true);
      expect(await healthOnBothListeners(server), `FUZZ_SEED=${SEED} batch ${batch}`).toEqual([
        200, 0,
      ]);
    }
    session.close();
    console.log(
      `${sent} malformed HTTP requests in ${Date.now() - started} ms; answers:`,
      Object.fromEntries([...statuses].sort()),
    );
    expect(sent).toBeGreaterThanOrEqual(10_000);
    expect(failures.slice(0, 20), `FUZZ_SEED=${SEED}: ${failures.length} bad answers`).toEqual([]);
    expect(server.stderr()).not.toMatch(/request handler failed|handler for rpc .* failed/);
  }, 180_000);
});
