import http from 'node:http';
import http2 from 'node:http2';
import { create, type DescService } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient, type Transport } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-node';
import * as grpc from '@grpc/grpc-js';
import { TreeDataService, IdentityService } from '@store/contract';
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
import { createGrpcJsClient } from './support/grpc-js-client.js';
import { runGrpcioTool } from './support/python-tools.js';
import { envelope, sendH2, sendHttp1 } from './faults/raw-rpc.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { DIALECTS } from './support/test-storage.js';
import { bearerInterceptor } from './support/bearer.js';

const TOKEN = 'test-bootstrap-token-0123456789abcdef';

const withToken = bearerInterceptor(TOKEN);

function metadata(): grpc.Metadata {
  const md = new grpc.Metadata();
  md.set('authorization', `Bearer ${TOKEN}`);
  return md;
}

describe.each(DIALECTS)('the server on %s', (dialect) => {
  let t: TestServer;
  let grpcWeb: Transport;
  beforeAll(async () => {
    t = await startTestServer(dialect, { STORE_BOOTSTRAP_TOKEN: TOKEN });
    grpcWeb = createGrpcWebTransport({
      baseUrl: t.server.httpUrl,
      httpVersion: '1.1',
      interceptors: [withToken],
    });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  function grpcJs(service: DescService) {
    return createGrpcJsClient(service, t.server.grpcUrl);
  }

  it('health Check says SERVING over native gRPC (grpc-js) and over gRPC-Web', async () => {
    const client = grpcJs(Health);
    const viaGrpcJs = await client.unary<{ status: number }>(
      'check',
      create(Health.method.check.input, {}),
    );
    client.close();
    expect(viaGrpcJs.status).toBe(ServingStatus.SERVING);
    const viaWeb = await createClient(Health, t.grpcWeb).check({
      service: 'store.backup.v1.BackupControlService',
    });
    expect(viaWeb.status).toBe(ServingStatus.SERVING);
  });

  it('the same tree-data calls give the same answers through grpc-js (h2c) and gRPC-Web (HTTP/1.1)', async () => {
    const web = createClient(TreeDataService, grpcWeb);
    const native = grpcJs(TreeDataService);
    try {
      const put = (tree: string, key: string, value: string) =>
        native.unary<{ sequence: bigint }>(
          'putEntry',
          create(TreeDataService.method.putEntry.input, { treeId: tree, key, valueJson: value }),
          metadata(),
        );
      const first = await put('parity', 'a', '{"b":1, "a":2}');
      const second = await web.putEntry({ treeId: 'parity', key: 'b', valueJson: '[1,2]' });
      expect(second.sequence).toBeGreaterThan(first.sequence);

      const viaWeb = await web.getEntry({ treeId: 'parity', key: 'a' });
      const viaNative = await native.unary<typeof viaWeb>(
        'getEntry',
        create(TreeDataService.method.getEntry.input, { treeId: 'parity', key: 'a' }),
        metadata(),
      );
      expect(viaWeb.entry?.valueJson).toBe('{"a":2,"b":1}');
      expect(viaNative.entry?.valueJson).toBe(viaWeb.entry?.valueJson);
      expect(viaNative.entry?.sequence).toBe(viaWeb.entry?.sequence);

      const listWeb = await web.listEntries({ treeId: 'parity' });
      const listNative = await native.unary<typeof listWeb>(
        'listEntries',
        create(TreeDataService.method.listEntries.input, { treeId: 'parity' }),
        metadata(),
      );
      expect(listNative.entries.map((e) => e.key)).toEqual(listWeb.entries.map((e) => e.key));
      expect(listWeb.entries.map((e) => e.key)).toEqual(['a', 'b']);
    } finally {
      native.close();
    }
  });

  it('errors carry the same gRPC code on both transports', async () => {
    const native = grpcJs(TreeDataService);
    try {
      const bad = create(TreeDataService.method.putEntry.input, {
        treeId: '../x',
        key: 'k',
        valueJson: '1',
      });
      const nativeError = await native
        .unary('putEntry', bad, metadata())
        .catch((e: grpc.ServiceError) => e);
      expect((nativeError as grpc.ServiceError).code).toBe(grpc.status.INVALID_ARGUMENT);
      const webError = await createClient(TreeDataService, grpcWeb)
        .putEntry(bad)
        .catch((e: unknown) => ConnectError.from(e));
      expect((webError as ConnectError).code).toBe(Code.InvalidArgument);
      const anonymous = await createClient(IdentityService, t.grpcWeb)
        .whoAmI({})
        .catch((e: unknown) => ConnectError.from(e));
      // rbac refuses a caller without a credential as it refuses one without the role.
      expect((anonymous as ConnectError).code).toBe(Code.PermissionDenied);
    } finally {
      native.close();
    }
  });

  it('WhoAmI names the bootstrap admin in the default tenant', async () => {
    const me = await createClient(IdentityService, grpcWeb).whoAmI({});
    expect(me.schemeId).toBe('bearer');
    expect(me.activeTenant).toBe('default');
    expect(me.tenants).toEqual([
      expect.objectContaining({ tenantId: 'default', roles: ['admin'] }),
    ]);
  });

  it.each([
    { version: 'v1', service: ServerReflection, requestSchema: ServerReflectionRequestSchema },
    // grpcurl 1.8 and grpcio's stock reflection client ask the deprecated v1alpha.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    { version: 'v1alpha', service: ServerReflectionV1Alpha, requestSchema: V1AlphaRequestSchema },
  ] as const)(
    'server reflection $version lists the services and serves their files (grpcurl works)',
    async ({ service, requestSchema }) => {
      const client = grpcJs(service);
      try {
        const call = (
          client.raw as unknown as Record<string, () => grpc.ClientDuplexStream<unknown, unknown>>
        ).serverReflectionInfo!.call(client.raw);
        const responses: Array<{ messageResponse: { case: string; value: unknown } }> = [];
        const done = new Promise<void>((resolve, reject) => {
          call.on('data', (r) => responses.push(r as (typeof responses)[number]));
          call.on('end', resolve);
          call.on('error', reject);
        });
        call.write(
          create(requestSchema, {
            messageRequest: { case: 'listServices', value: '' },
          }),
        );
        call.write(
          create(requestSchema, {
            messageRequest: {
              case: 'fileContainingSymbol',
              value: 'store.backup.v1.BackupControlService',
            },
          }),
        );
        call.end();
        await done;
        const services = (
          responses[0]?.messageResponse.value as { service: Array<{ name: string }> }
        ).service;
        expect(services.map((s) => s.name)).toEqual(
          expect.arrayContaining([
            'store.backup.v1.BackupControlService',
            'store.schema.v1.SchemaControlService',
            'grpc.health.v1.Health',
            'grpc.reflection.v1.ServerReflection',
            'grpc.reflection.v1alpha.ServerReflection',
          ]),
        );
        expect(responses[1]?.messageResponse.case).toBe('fileDescriptorResponse');
        const files = (responses[1]?.messageResponse.value as { fileDescriptorProto: Uint8Array[] })
          .fileDescriptorProto;
        expect(files.length).toBeGreaterThan(3);
      } finally {
        client.close();
      }
    },
  );
  it.each([
    ['an unknown method of a known service', '/store.backup.v1.BackupControlService/NoSuchMethod'],
    ['an unknown service', '/no.such.v1.Service/Call'],
  ])('%s is Unimplemented on every port and protocol, naming the path', async (_what, path) => {
    const agent = new http.Agent({ keepAlive: false });
    const session = http2.connect(t.server.grpcUrl);
    const proto = envelope(0, new Uint8Array(0));
    const json = new TextEncoder().encode('{}');
    const jsonFrame = envelope(0, json);
    try {
      const outcomes = {
        'gRPC (h2c)': await sendH2(session, path, { 'content-type': 'application/grpc' }, proto),
        'Connect unary (h2c)': await sendH2(
          session,
          path,
          { 'content-type': 'application/json' },
          json,
        ),
        'gRPC-Web (HTTP/1.1)': await sendHttp1(
          agent,
          t.server.httpUrl,
          path,
          { 'content-type': 'application/grpc-web+proto' },
          proto,
        ),
        'Connect unary (HTTP/1.1)': await sendHttp1(
          agent,
          t.server.httpUrl,
          path,
          { 'content-type': 'application/json' },
          json,
        ),
        'Connect streaming (HTTP/1.1)': await sendHttp1(
          agent,
          t.server.httpUrl,
          path,
          { 'content-type': 'application/connect+json' },
          jsonFrame,
        ),
      };
      for (const [protocol, outcome] of Object.entries(outcomes)) {
        expect(outcome.grpcCode, `${protocol}: HTTP ${outcome.httpStatus}`).toBe(
          Code.Unimplemented,
        );
        expect(outcome.message, protocol).toContain(path);
      }
    } finally {
      session.close();
      agent.destroy();
    }
  });

  it('an error message reaches a grpc-js client as sent: only what the gRPC spec requires is percent-encoded', async () => {
    const service = 'no:such;service/?#&=+$,@ 100% é';
    const client = grpcJs(Health);
    try {
      const failure = await client
        .unary('check', create(Health.method.check.input, { service }))
        .then(
          () => undefined,
          (error: unknown) => error as grpc.ServiceError,
        );
      expect(failure?.code).toBe(grpc.status.NOT_FOUND);
      expect(failure?.details).toBe(`unknown service ${service}`);
    } finally {
      client.close();
    }
    // And as connect's own clients decode it, on both listeners.
    for (const transport of [t.grpc, t.grpcWeb]) {
      const refused = await createClient(Health, transport)
        .check({ service })
        .then(
          () => undefined,
          (error: unknown) => ConnectError.from(error),
        );
      expect(refused?.rawMessage).toBe(`unknown service ${service}`);
    }
  });

  it("grpcio's stock reflection client (v1alpha) lists the services and resolves one to its methods", async () => {
    const target = new URL(t.server.grpcUrl).host;
    const answer = (await runGrpcioTool('reflection_client.py', [
      target,
      'store.backup.v1.BackupControlService',
    ])) as { services: string[]; methods: string[] };
    expect(answer.services).toEqual(
      expect.arrayContaining([
        'store.backup.v1.BackupControlService',
        'store.schema.v1.SchemaControlService',
        'grpc.health.v1.Health',
      ]),
    );
    expect(answer.methods).toEqual(expect.arrayContaining(['StartBackup', 'ListBackups']));
  }, 180_000);
});

describe.each(DIALECTS)('the per-message size limit on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, {
      STORE_BOOTSTRAP_TOKEN: TOKEN,
      STORE_MAX_MESSAGE_BYTES: String(64 * 1024),
    });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('a request over STORE_MAX_MESSAGE_BYTES is ResourceExhausted on both listeners; one under it passes', async () => {
    // Both values are under the engine's own value limit (256 KiB): only the message limit differs.
    const big = JSON.stringify('x'.repeat(100 * 1024));
    const small = JSON.stringify('x'.repeat(32 * 1024));
    for (const transport of [t.grpc, t.grpcWeb]) {
      const data = createClient(TreeDataService, transport);
      const headers = { authorization: `Bearer ${TOKEN}` };
      const refused = await data
        .putEntry({ treeId: 'limits', key: 'big', valueJson: big }, { headers })
        .catch((e: unknown) => ConnectError.from(e));
      expect((refused as ConnectError).code).toBe(Code.ResourceExhausted);
      const put = await data.putEntry(
        { treeId: 'limits', key: 'small', valueJson: small },
        { headers },
      );
      expect(put.sequence).toBeGreaterThan(0n);
    }
    const native = createGrpcJsClient(TreeDataService, t.server.grpcUrl);
    try {
      const request = create(TreeDataService.method.putEntry.input, {
        treeId: 'limits',
        key: 'big',
        valueJson: big,
      });
      const error = await native
        .unary('putEntry', request, metadata())
        .catch((e: grpc.ServiceError) => e);
      expect((error as grpc.ServiceError).code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    } finally {
      native.close();
    }
  });
});
