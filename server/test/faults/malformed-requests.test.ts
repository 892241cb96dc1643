import http from 'node:http';
import http2 from 'node:http2';
import type { DescMethod } from '@bufbuild/protobuf';
import { Health } from '@store/contract/gen/grpc/health/v1/health_pb.js';
import { ServerReflection } from '@store/contract/gen/grpc/reflection/v1/reflection_pb.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_SERVICES } from '../../src/transport/routes.js';
import {
  newStorageLocation,
  removeStorageLocation,
  type TestStorageLocation,
} from '../support/test-storage.js';
import { malformedRequest, type FuzzCase } from './malformed-requests.js';
import { envelope, sendH2, sendHttp1, type RawOutcome } from './raw-rpc.js';
import { SeededRandom } from './seeded-random.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';

const REQUESTS = 10_000;
const CONCURRENCY = 32;
const READ_MAX_BYTES = 64 * 1024;
// FUZZ_SEED=<n> replays a reported run.
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

// Health.Watch streams until the client leaves: a fuzzer waiting for its status would wait forever.
const METHODS: DescMethod[] = [...STORE_SERVICES, Health, ServerReflection]
  .flatMap((s) => s.methods)
  .filter((m) => m !== Health.method.watch);

/** A proper answer: a gRPC status other than Unknown (2) and Internal (13), or 415 when asked. */
function verdict(fuzz: FuzzCase, outcome: RawOutcome): string | undefined {
  if (fuzz.expect === 415) {
    return outcome.httpStatus === 415 ? undefined : `HTTP ${outcome.httpStatus}, expected 415`;
  }
  if (outcome.grpcCode === undefined) return `HTTP ${outcome.httpStatus} without a gRPC status`;
  if (outcome.grpcCode === 2 || outcome.grpcCode === 13) {
    return `gRPC ${outcome.grpcCode === 2 ? 'Unknown' : 'Internal'}: ${outcome.message}`;
  }
  return undefined;
}

describe('malformed and mutated requests', () => {
  let location: TestStorageLocation;
  let server: ServerProcess;
  beforeAll(async () => {
    location = newStorageLocation('sqlite');
    server = await spawnServer(location, {
      env: { STORE_MAX_MESSAGE_BYTES: String(READ_MAX_BYTES) },
    });
  });
  afterAll(async () => {
    await server?.kill();
    if (location) await removeStorageLocation(location);
  });

  it('a JSON request whose error text holds an unpaired surrogate is answered InvalidArgument, not left hanging', async () => {
    const agent = new http.Agent({ keepAlive: true });
    const session = http2.connect(server.grpcUrl);
    const auth = { authorization: `Bearer ${server.bootstrapToken}` };
    const path = '/store.schema.v1.SchemaControlService/GetPolicy';
    // V8 quotes half of an astral character in JSON.parse's message; a JSON escape makes one.
    const bodies = ['😀', '{"treeId": "\\ud800"}'].map((text) => envelope(0, Buffer.from(text)));
    const outcomes: RawOutcome[] = [];
    for (const body of bodies) {
      outcomes.push(
        await sendH2(
          session,
          path,
          { ...auth, 'content-type': 'application/grpc+json' },
          body,
          5000,
        ),
        await sendHttp1(
          agent,
          server.httpUrl,
          path,
          { ...auth, 'content-type': 'application/grpc-web+json' },
          body,
          5000,
        ),
      );
    }
    agent.destroy();
    session.close();
    expect(outcomes.map((o) => o.grpcCode)).toEqual([3, 3, 3, 3]);
  });

  it('a request with no message, or with two, for a method that takes one is InvalidArgument in every protocol', async () => {
    const agent = new http.Agent({ keepAlive: true });
    const session = http2.connect(server.grpcUrl);
    const auth = { authorization: `Bearer ${server.bootstrapToken}` };
    const unary = '/store.schema.v1.SchemaControlService/GetPolicy';
    const streaming = '/store.backup.v1.BackupControlService/ExportArtifact';
    const one = envelope(0, Buffer.from('{}'));
    const bodies = { none: Buffer.alloc(0), two: Buffer.concat([one, one]) };
    // A Connect stream only: a unary Connect call has no envelope to count.
    const calls = [
      ...[unary, streaming].flatMap((path) => [
        { path, protocol: 'grpc' },
        { path, protocol: 'grpc-web' },
      ]),
      { path: streaming, protocol: 'connect' },
    ];
    const answers: string[] = [];
    for (const [count, body] of Object.entries(bodies)) {
      for (const { path, protocol } of calls) {
        const headers = { ...auth, 'content-type': `application/${protocol}+json` };
        const outcome =
          protocol === 'grpc'
            ? await sendH2(session, path, headers, body, 5000)
            : await sendHttp1(agent, server.httpUrl, path, headers, body, 5000);
        answers.push(`${count} ${path} ${protocol} ${outcome.grpcCode}`);
      }
    }
    agent.destroy();
    session.close();
    expect(answers).toEqual(answers.map((answer) => answer.replace(/\S+$/, '3')));
  });

  it(`${REQUESTS} of them on both listeners each get a proper gRPC status (or 415), and the server stays up`, async () => {
    console.log(`malformed-request fuzzing with FUZZ_SEED=${SEED}`);
    const rng = new SeededRandom(SEED);
    // Generated up front, so the cases do not depend on the order answers arrive in.
    const cases = Array.from({ length: REQUESTS }, (_, i) =>
      malformedRequest(
        rng,
        METHODS,
        i % 2 === 0 ? server.bootstrapToken : undefined,
        READ_MAX_BYTES,
      ),
    );
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    let session = http2.connect(server.grpcUrl);
    const failures: string[] = [];
    const codes = new Map<string, number>();
    let next = 0;
    const started = Date.now();
    const worker = async () => {
      while (next < cases.length) {
        const index = next++;
        const fuzz = cases[index] as FuzzCase;
        let outcome: RawOutcome;
        try {
          if (fuzz.listener === 'http1') {
            outcome = await sendHttp1(agent, server.httpUrl, fuzz.path, fuzz.headers, fuzz.body);
          } else {
            if (session.closed || session.destroyed) session = http2.connect(server.grpcUrl);
            outcome = await sendH2(session, fuzz.path, fuzz.headers, fuzz.body);
          }
        } catch (error) {
          failures.push(`#${index} ${fuzz.listener} ${fuzz.path} ${fuzz.label}: ${String(error)}`);
          continue;
        }
        const key = `${outcome.grpcCode ?? `http ${outcome.httpStatus}`}`;
        codes.set(key, (codes.get(key) ?? 0) + 1);
        const problem = verdict(fuzz, outcome);
        if (problem)
          failures.push(`#${index} ${fuzz.listener} ${fuzz.path} ${fuzz.label}: ${problem}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    agent.destroy();
    session.close();
    console.log(
      `${REQUESTS} malformed requests in ${Date.now() - started} ms; answers by gRPC code:`,
      Object.fromEntries([...codes].sort()),
    );
    expect(server.alive(), server.stderr()).toBe(true);
    expect(failures.slice(0, 20), `FUZZ_SEED=${SEED}: ${failures.length} bad answers`).toEqual([]);
    // Connect logs a handler that failed outside the protocol's error path; none may have.
    expect(server.stderr()).not.toMatch(/handler for rpc .* failed|unexpected fault in handler/);
  }, 120_000);
});
