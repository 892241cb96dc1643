import { join } from 'node:path';
import { Code, createClient, type Transport } from '@connectrpc/connect';
import { BackupControlService, SchemaControlService } from '@store/contract';
import { Health } from '@store/contract/gen/grpc/health/v1/health_pb.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BackupEngine } from '../src/engines/backup/backup-engine.js';
import { OperationRunner } from '../src/engines/operations/operation-runner.js';
import { SchemaEngine } from '../src/engines/schema/schema-engine.js';
import { SchemaOperations } from '../src/engines/schema/schema-tracked.js';
import type { Listeners } from '../src/http/listeners.js';
import {
  addStoreBackupApi,
  addStoreDataApi,
  addStoreIdentityApi,
  addStoreSchemaApi,
} from '../src/transport/apis.js';
import type { Authorizer } from '../src/transport/auth/authorizers.js';
import { BACKUP_RESULT_MAPPERS } from '../src/transport/backup/backup-mapping.js';
import { HealthRegistry } from '../src/transport/grpc/health-service.js';
import type { OperationsFacade } from '../src/transport/operations/operations-facade.js';
import { SCHEMA_RESULT_MAPPERS } from '../src/transport/schema/schema-mapping.js';
import { StoreApiHost } from '../src/transport/store-api-host.js';
import { callMethod } from './support/call-every-rpc.js';
import { seedTree } from './support/schema-fixtures.js';
import { serveHost, silentLogger as logger } from './support/serve-host.js';
import { DIALECTS, openTestStorage } from './support/test-storage.js';

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
  const served = await serveHost(host, health);
  listeners = served.listeners;
  return served.transport;
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
    expect(() => addStoreDataApi(null as never, {} as never)).toThrow(TypeError);
    expect(() => addStoreIdentityApi(undefined as never)).toThrow(TypeError);
  });

  it('a host that configures nothing gets deny-all: every protected call is PermissionDenied', async () => {
    const host = new StoreApiHost(logger);
    addStoreBackupApi(host, { resultMappers: {}, operations: noOperations });
    const transport = await serve(host);
    const list = BackupControlService.method.listBackupOperations;
    expect(await callMethod(transport, BackupControlService, list, {})).toBe(Code.PermissionDenied);
    // With a credential too, though no verifier is registered that could accept it.
    const withCredential = { authorization: 'Bearer st_whatever_0123456789abcdef' };
    expect(await callMethod(transport, BackupControlService, list, withCredential)).toBe(
      Code.PermissionDenied,
    );
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

describe.each([
  ['backup (spec 000)', addStoreBackupApi, BackupControlService.method.listBackupOperations],
  ['schema (spec 001)', addStoreSchemaApi, SchemaControlService.method.listSchemaOperations],
] as const)('repeat registration of the %s API', (_, add, list) => {
  const service = list.parent;

  it('keeps the first registration’s seams: its authorizer runs on every call, the repeat’s never', async () => {
    const host = new StoreApiHost(logger);
    const runs = { first: 0, repeat: 0 };
    add(host, { resultMappers: {}, operations: noOperations }, (setup) => {
      allowAnonymous(setup);
      setup.authorizer = { name: 'first', isAuthorized: () => (runs.first++, true) };
    });
    add(host, { resultMappers: {}, operations: noOperations }, (setup) => {
      setup.authorizer = { name: 'repeat', isAuthorized: () => (runs.repeat++, false) };
    });
    const transport = await serve(host);
    expect(await callMethod(transport, service, list, {})).toBe('ok');
    // Two registrations, two interceptors (the spec's warning), both with the first's seams.
    expect(runs).toEqual({ first: 2, repeat: 0 });
  });

  it('layers each call’s configure onto the options the earlier calls configured, for every interceptor of the service', async () => {
    const host = new StoreApiHost(logger);
    let seen: string | undefined;
    const first = add(host, { resultMappers: {}, operations: noOperations }, allowAnonymous);
    const repeat = add(host, { resultMappers: {}, operations: noOperations }, (setup) => {
      seen = setup.options.trustedTenant;
      // A whole new options object, as the shipped host's configure assigns, is layered too.
      setup.options = { ...setup.options, credentialHeaderName: 'x-store-token' };
    });
    expect(seen).toBe('lab');
    expect(repeat).toBe(first);
    const transport = await serve(host);
    // Both interceptors read the layered header: the default one is no longer a credential,
    // so a junk value there leaves the caller anonymous (allowed here); in the new one it is
    // a bad credential.
    expect(await callMethod(transport, service, list, { authorization: 'Bearer junk' })).toBe('ok');
    expect(await callMethod(transport, service, list, { 'x-store-token': 'Bearer junk' })).toBe(
      Code.Unauthenticated,
    );
  });
});

/** Real engines on fresh storage, as a host that composes the library would build them. */
async function realEngines(dialect: (typeof DIALECTS)[number]) {
  const storage = await openTestStorage(dialect);
  const runner = new OperationRunner({ storage, pollMs: 50 });
  const schema = new SchemaEngine({ storage });
  const schemaOperations = new SchemaOperations(schema, runner);
  schemaOperations.register();
  const backup = new BackupEngine({
    storage,
    artifacts: join(storage.location.dataDir, 'artifacts'),
    runner,
    schedulerMinIntervalMs: 60_000,
    healthMonitoring: false,
  });
  runner.start();
  await seedTree(storage, 'lab', 'orders', [
    ['a', { name: 'x' }, 0],
    ['b', { name: 7 }, 0],
  ]);
  return {
    storage,
    runner,
    schema,
    schemaOperations,
    backup,
    async dispose() {
      await runner.stop({ graceMs: 0 });
      await storage.dispose();
    },
  };
}

async function expectUnimplemented(
  transport: Transport,
  service: typeof BackupControlService | typeof SchemaControlService,
  names: readonly string[],
) {
  for (const name of names) {
    const method = service.methods.find((m) => m.name === name)!;
    expect(await callMethod(transport, service, method, {}), name).toBe(Code.Unimplemented);
  }
}

describe.each(DIALECTS)('facade switches on %s', (dialect) => {
  it('without an operations facade the eleven tracked backup RPCs are Unimplemented while the blocking ones work', async () => {
    const engines = await realEngines(dialect);
    try {
      const host = new StoreApiHost(logger);
      addStoreBackupApi(
        host,
        { resultMappers: BACKUP_RESULT_MAPPERS, backup: engines.backup },
        allowAnonymous,
      );
      const transport = await serve(host);
      await expectUnimplemented(transport, BackupControlService, trackedBackupRpcs);

      // The obsolete blocking RPCs do their real work without the facade.
      const client = createClient(BackupControlService, transport);
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking form is the point
      const made = await client.createBackup({ name: 'blocking', scope: { treeId: 'orders' } });
      expect(Number(made.manifest?.entryCount)).toBe(2);
      const listed = await client.listBackups({ treeId: 'orders' });
      expect(listed.backups.map((b) => b.backupId)).toEqual([made.backupId]);
      expect((await client.describeBackup({ backupId: made.backupId })).found).toBe(true);
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking form is the point
      const restored = await client.restoreBackup({ backupId: made.backupId });
      expect(Number(restored.entriesApplied)).toBe(2);
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking form is the point
      const health = await client.checkBackupHealth({ backupId: made.backupId });
      expect(health.report?.chainIntact).toBe(true);
    } finally {
      await engines.dispose();
    }

    // With the facade the tracked RPCs answer.
    const withOps = new StoreApiHost(logger);
    addStoreBackupApi(withOps, { resultMappers: {}, operations: noOperations }, allowAnonymous);
    await listeners?.close(100);
    const transport2 = await serve(withOps);
    const status = BackupControlService.method.getBackupOperationStatus;
    expect(await callMethod(transport2, BackupControlService, status, {})).toBe('ok');
  });

  it('without a compliance-operations facade the four scan RPCs are Unimplemented while the rest of the schema API works', async () => {
    const engines = await realEngines(dialect);
    try {
      const host = new StoreApiHost(logger);
      addStoreSchemaApi(
        host,
        {
          resultMappers: SCHEMA_RESULT_MAPPERS,
          operations: engines.runner,
          engine: engines.schema,
          tracked: engines.schemaOperations,
        },
        allowAnonymous,
      );
      const transport = await serve(host);
      await expectUnimplemented(transport, SchemaControlService, complianceRpcs);

      const client = createClient(SchemaControlService, transport);
      await client.setPolicy({
        treeId: 'orders',
        policy: { jsonSchema: '{"properties":{"name":{"type":"string"}}}' },
      });
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking form is the point
      const scan = await client.scanCompliance({ treeId: 'orders' });
      expect([scan.report?.compliant, scan.report?.nonCompliant].map(Number)).toEqual([1, 1]);
      const list = SchemaControlService.method.listSchemaOperations;
      expect(await callMethod(transport, SchemaControlService, list, {})).toBe('ok');
    } finally {
      await engines.dispose();
    }
  });
});
