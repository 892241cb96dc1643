// Issue 35, bullet 5: whether server reflection is reachable through Envoy is a setting
// (STORE_EDGE_REFLECTION, docs/deployment.md "Reflection through Envoy"). The real Envoy with
// proxy/envoy.yaml in front of a real server, once per setting, asked by a gRPC client over h2c.
/* eslint-disable @typescript-eslint/no-deprecated -- v1alpha is deprecated, and what grpcurl 1.8 asks */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  Health,
  HealthCheckResponse_ServingStatus as ServingStatus,
} from '@store/contract/gen/grpc/health/v1/health_pb.js';
import {
  ServerReflection,
  ServerReflectionRequestSchema,
} from '@store/contract/gen/grpc/reflection/v1/reflection_pb.js';
import {
  ServerReflection as ServerReflectionV1Alpha,
  ServerReflectionRequestSchema as V1AlphaRequestSchema,
} from '@store/contract/gen/grpc/reflection/v1alpha/reflection_pb.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Managed } from '../../scripts/edge/processes.js';
import { startEnvoy } from '../../scripts/edge/topology.js';
import { startTestServer, type TestServer } from './support/test-server.js';

/** A client stream of one message. */
async function* once<T>(message: T): AsyncGenerator<T> {
  yield message;
}

/** The services a reflection client lists through `baseUrl`, asking `version`. */
async function listServices(baseUrl: string, version: 'v1' | 'v1alpha'): Promise<string[]> {
  const transport = createGrpcTransport({ baseUrl });
  const names: string[] = [];
  // grpcurl 1.8 and grpcio's stock client ask v1alpha, newer clients v1: both must behave alike.
  const responses =
    version === 'v1'
      ? createClient(ServerReflection, transport).serverReflectionInfo(
          once(
            create(ServerReflectionRequestSchema, {
              messageRequest: { case: 'listServices', value: '' },
            }),
          ),
        )
      : createClient(ServerReflectionV1Alpha, transport).serverReflectionInfo(
          once(
            create(V1AlphaRequestSchema, { messageRequest: { case: 'listServices', value: '' } }),
          ),
        );
  for await (const response of responses) {
    if (response.messageResponse.case === 'listServicesResponse')
      names.push(...response.messageResponse.value.service.map((s) => s.name));
  }
  return names;
}

describe.each([
  { setting: 'on', reflection: true },
  { setting: 'off', reflection: false },
])('STORE_EDGE_REFLECTION=$setting', ({ reflection }) => {
  let t: TestServer;
  let dir: string;
  let envoy: Managed | undefined;
  let edgeUrl: string;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
    dir = await mkdtemp(join(tmpdir(), 'store-reflection-edge-'));
    const port = (url: string) => Number(new URL(url).port);
    const started = await startEnvoy(dir, dir, {
      replicas: [{ grpcPort: port(t.server.grpcUrl), httpPort: port(t.server.httpUrl) }],
      reflection,
    });
    envoy = started.envoy;
    edgeUrl = `http://127.0.0.1:${started.listenPort}`;
  });
  afterAll(async () => {
    await envoy?.stop();
    await t?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each(['v1', 'v1alpha'] as const)(
    `reflection %s through Envoy: ${reflection ? 'lists the services' : 'Unimplemented'}; direct: always`,
    async (version) => {
      const direct = await listServices(t.server.grpcUrl, version);
      expect(direct).toContain('store.backup.v1.BackupControlService');
      if (reflection) {
        expect((await listServices(edgeUrl, version)).sort()).toEqual(direct.sort());
      } else {
        const refused = await listServices(edgeUrl, version).then(
          () => undefined,
          (error: unknown) => ConnectError.from(error),
        );
        expect(refused?.code).toBe(Code.Unimplemented);
      }
    },
  );

  it('routes the RPCs either way', async () => {
    const health = createClient(Health, createGrpcTransport({ baseUrl: edgeUrl }));
    expect((await health.check({})).status).toBe(ServingStatus.SERVING);
  });
});
