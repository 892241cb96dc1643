import { Code } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BackupControlService, SchemaControlService } from '@store/contract';
import { Health } from '@store/contract/gen/grpc/health/v1/health_pb.js';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type Listeners } from '../src/http/listeners.js';
import { addStoreBackupApi, addStoreSchemaApi } from '../src/transport/apis.js';
import type { Authorizer } from '../src/transport/auth/authorizers.js';
import { errorMappingInterceptor } from '../src/transport/error-interceptor.js';
import { HealthRegistry, registerHealthService } from '../src/transport/health-service.js';
import type { OperationsFacade } from '../src/transport/operations-facade.js';
import { StoreApiHost } from '../src/transport/store-api-host.js';
import { callMethod } from './support/call-every-rpc.js';

const logger = pino({ level: 'silent' });
const noOperations: OperationsFacade = {
  get: async () => undefined,
  list: async () => ({ operations: [], nextPageToken: '' }),
  cancel: async () => undefined,
};
const trackedBackupRpcs = [
  'StartBackup',
  'StartIncrementalBackup',
  'StartBackupSet',
  'StartRestore',
  'StartColdRestore',
  'StartBackupHealthCheck',
  'StartCatalogRebuild',
  'StartCatalogScrub',
  'GetBackupOperationStatus',
  'ListBackupOperations',
  'CancelBackupOperation',
];
const complianceRpcs = [
  'StartComplianceScan',
  'GetComplianceScanStatus',
  'ListComplianceScans',
  'CancelComplianceScan',
];

let listeners: Listeners | undefined;
afterEach(async () => {
  await listeners?.close(100);
  listeners = undefined;
});

async function serve(host: StoreApiHost, health?: HealthRegistry) {
  const routes = (router: Parameters<typeof host.routes>[0]) => {
    host.routes(router);
    if (health) registerHealthService(router, health);
  };
  listeners = await listen({
    host: '127.0.0.1',
    httpPort: 0,
    grpcPort: 0,
    routes,
    interceptors: [errorMappingInterceptor(logger), ...host.interceptors],
    maxMessageBytes: 1 << 20,
    fallback: (_req, res) => res.writeHead(404).end(),
    logger,
  });
  return createGrpcTransport({ baseUrl: `http://127.0.0.1:${listeners.grpcPort}` });
}

const allowAnonymous = (setup: {
  options: { trustedTenant?: string };
  authorizer?: Authorizer;
}) => {
  setup.options.trustedTenant = 'lab';
  setup.authorizer = { name: 'host', isAuthorized: () => true };
};

describe('registration', () => {
  it('throws TypeError when the host is missing', () => {
    expect(() => addStoreBackupApi(null as never, { resultMappers: {} })).toThrow(TypeError);
    expect(() => addStoreSchemaApi(undefined as never, { resultMappers: {} })).toThrow(TypeError);
  });

  it('a host that configures nothing gets deny-all: every protected call is PermissionDenied', async () => {
    const host = new StoreApiHost(logger);
    addStoreBackupApi(host, { resultMappers: {}, operations: noOperations });
    const transport = await serve(host);
    const list = BackupControlService.method.listBackupOperations;
    expect(await callMethod(transport, BackupControlService, list, {})).toBe(Code.PermissionDenied);
    const scheme = BackupControlService.method.getAuthScheme;
    expect(await callMethod(transport, BackupControlService, scheme, {})).toBe('ok');
  });

  it('a host-registered authorizer wins over the default, and a throwing one fails closed', async () => {
    const host = new StoreApiHost(logger);
    addStoreBackupApi(host, { resultMappers: {}, operations: noOperations }, allowAnonymous);
    addStoreSchemaApi(host, { resultMappers: {}, operations: noOperations }, (setup) => {
      setup.options.trustedTenant = 'lab';
      setup.authorizer = {
        name: 'broken',
        isAuthorized: () => {
          throw new Error('policy store down');
        },
      };
    });
    const transport = await serve(host);
    const backupList = BackupControlService.method.listBackupOperations;
    expect(await callMethod(transport, BackupControlService, backupList, {})).toBe('ok');
    const schemaList = SchemaControlService.method.listSchemaOperations;
    expect(await callMethod(transport, SchemaControlService, schemaList, {})).toBe(
      Code.PermissionDenied,
    );
  });

  it('the interceptor acts only on its own service: health on the same host is unaffected', async () => {
    const host = new StoreApiHost(logger);
    addStoreBackupApi(host, { resultMappers: {} }); // deny-all
    const health = new HealthRegistry([]);
    const transport = await serve(host, health);
    expect(await callMethod(transport, Health, Health.method.check, {})).toBe('ok');
  });

  it('two registrations add the interceptor twice, and the authorizer runs twice per RPC', async () => {
    const host = new StoreApiHost(logger);
    let runs = 0;
    const counting = (setup: Parameters<typeof allowAnonymous>[0]) => {
      allowAnonymous(setup);
      setup.authorizer = { name: 'counting', isAuthorized: () => (runs++, true) };
    };
    addStoreBackupApi(host, { resultMappers: {}, operations: noOperations }, counting);
    addStoreBackupApi(host, { resultMappers: {}, operations: noOperations }, counting);
    const transport = await serve(host);
    await callMethod(
      transport,
      BackupControlService,
      BackupControlService.method.listBackupOperations,
      {},
    );
    expect(runs).toBe(2);
  });
});

describe('facade switches', () => {
  it('without an operations facade the eleven tracked backup RPCs are Unimplemented; with one they answer', async () => {
    const host = new StoreApiHost(logger);
    addStoreBackupApi(host, { resultMappers: {} }, allowAnonymous);
    const transport = await serve(host);
    for (const name of trackedBackupRpcs) {
      const method = BackupControlService.methods.find((m) => m.name === name)!;
      expect(await callMethod(transport, BackupControlService, method, {}), name).toBe(
        Code.Unimplemented,
      );
    }
    const withOps = new StoreApiHost(logger);
    addStoreBackupApi(withOps, { resultMappers: {}, operations: noOperations }, allowAnonymous);
    await listeners?.close(100);
    const transport2 = await serve(withOps);
    const status = BackupControlService.method.getBackupOperationStatus;
    expect(await callMethod(transport2, BackupControlService, status, {})).toBe('ok');
  });

  it('without a compliance-operations facade the four scan RPCs are Unimplemented while schema operations work', async () => {
    const host = new StoreApiHost(logger);
    addStoreSchemaApi(host, { resultMappers: {}, operations: noOperations }, allowAnonymous);
    const transport = await serve(host);
    for (const name of complianceRpcs) {
      const method = SchemaControlService.methods.find((m) => m.name === name)!;
      expect(await callMethod(transport, SchemaControlService, method, {}), name).toBe(
        Code.Unimplemented,
      );
    }
    const list = SchemaControlService.method.listSchemaOperations;
    expect(await callMethod(transport, SchemaControlService, list, {})).toBe('ok');
  });
});
