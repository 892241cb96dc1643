// Issue 4: what each protected RPC presents to the authorizer — the operation and the TargetId
// of both specs' tables (transcribed here independently of the server's own map) — and a
// host-registered credential bridge.
import { Code, createClient } from '@connectrpc/connect';
import {
  BackupControlService,
  IdentityService,
  SchemaControlService,
  StoreBackupApiOperation,
  StoreDataApiOperation,
  StoreIdentityApiOperation,
  StoreSchemaApiOperation,
  TreeDataService,
} from '@store/contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { Listeners } from '../src/http/listeners.js';
import {
  addStoreBackupApi,
  addStoreDataApi,
  addStoreIdentityApi,
  addStoreSchemaApi,
} from '../src/transport/apis.js';
import type { AuthorizationContext } from '../src/transport/auth/authorization-context.js';
import { rbacAuthorizer } from '../src/transport/auth/authorizers.js';
import { accessOf } from '../src/transport/auth/method-access.js';
import { BACKUP_SERVICE } from '../src/transport/backup/backup-access.js';
import { DATA_SERVICE } from '../src/transport/data/data-access.js';
import { SCHEMA_SERVICE } from '../src/transport/schema/schema-access.js';
import { StoreApiHost, type StoreApiSetup } from '../src/transport/store-api-host.js';
import { callMethod } from './support/call-every-rpc.js';
import { serveHost, silentLogger } from './support/serve-host.js';

// callMethod fills backupId 'b-1', treeId 'orders' and scope { treeId: 'orders' }.
const BACKUP_ID = 'b-1';
const TREE = 'orders';

/** Spec 000, TargetId table, plus DESIGN.md §4 for the start, status, list and cancel forms. */
const BACKUP_TARGETS: Record<string, string | null> = {
  ...Object.fromEntries(
    [
      'DescribeBackup',
      'DeleteBackup',
      'RestoreBackup',
      'RevertRestore',
      'ExportArtifact',
      'CheckBackupHealth',
      'GetBackupHealth',
      'ConfigureBackupHealth',
      'StartBackupHealthCheck',
      'StartRestore',
      'StartColdRestore',
    ].map((m) => [m, BACKUP_ID]),
  ),
  ...Object.fromEntries(
    [
      'CreateBackup',
      'CreateIncrementalBackup',
      'StartBackup',
      'StartIncrementalBackup',
      'ScheduleBackup',
      'CancelSchedule',
      'GetScopeStatus',
    ].map((m) => [m, TREE]),
  ),
  ...Object.fromEntries(
    [
      'ListBackups',
      'StreamBackups',
      'CreateBackupSet',
      'StartBackupSet',
      'StartCatalogRebuild',
      'StartCatalogScrub',
      'ProbeCapabilities',
      'IsHealthMonitoringAvailable',
      'GetBackupOperationStatus',
      'ListBackupOperations',
      'CancelBackupOperation',
    ].map((m) => [m, null]),
  ),
};

/** Spec 001: every tree RPC's TargetId is the tree id as sent; operation RPCs have none. */
const SCHEMA_OPERATION_RPCS = [
  'GetComplianceScanStatus',
  'ListComplianceScans',
  'CancelComplianceScan',
  'GetSchemaOperationStatus',
  'ListSchemaOperations',
  'CancelSchemaOperation',
];

const upperSnake = (name: string) => name.replace(/(?<!^)([A-Z])/g, '_$1').toUpperCase();

let listeners: Listeners | undefined;
afterEach(async () => {
  await listeners?.close(100);
  listeners = undefined;
});

/** A host with all four APIs (no engines: calls end Unimplemented after the interceptor). */
async function recordingHost() {
  const seen = new Map<string, AuthorizationContext>();
  const configure = (setup: StoreApiSetup) => {
    setup.options.trustedTenant = 'lab';
    setup.authorizer = {
      name: 'recording',
      isAuthorized: (context) => (seen.set(context.call.method, context), true),
    };
  };
  const host = new StoreApiHost(silentLogger);
  addStoreBackupApi(host, { resultMappers: {} }, configure);
  addStoreSchemaApi(host, { resultMappers: {} }, configure);
  addStoreDataApi(host, undefined as never, configure);
  addStoreIdentityApi(host, configure);
  const served = await serveHost(host);
  listeners = served.listeners;
  return { transport: served.transport, seen };
}

describe('the authorization context each RPC presents', () => {
  it('backup: the spec operation (ProbeCapabilities as Unknown) and the TargetId table', async () => {
    const { transport, seen } = await recordingHost();
    for (const method of BackupControlService.methods) {
      await callMethod(transport, BackupControlService, method, {});
    }
    expect(seen.has('GetAuthScheme')).toBe(false);
    const methods = BackupControlService.methods
      .map((m) => m.name)
      .filter((m) => m !== 'GetAuthScheme');
    expect(new Set(Object.keys(BACKUP_TARGETS))).toEqual(new Set(methods));
    for (const name of methods) {
      const context = seen.get(name);
      expect(context, name).toBeDefined();
      expect(context!.targetId, name).toBe(BACKUP_TARGETS[name]);
      const operation =
        name === 'ProbeCapabilities'
          ? StoreBackupApiOperation.UNKNOWN
          : StoreBackupApiOperation[upperSnake(name) as keyof typeof StoreBackupApiOperation];
      expect(context!.operation, name).toBe(operation);
      expect(context!.call.service).toBe(BackupControlService.typeName);
    }
  });

  it('schema: the tree id exactly as sent (not scoped), null for operation RPCs', async () => {
    const { transport, seen } = await recordingHost();
    for (const method of SchemaControlService.methods) {
      await callMethod(transport, SchemaControlService, method, {});
    }
    expect(seen.has('GetAuthScheme')).toBe(false);
    for (const method of SchemaControlService.methods) {
      if (method.name === 'GetAuthScheme') continue;
      const context = seen.get(method.name)!;
      const expected = SCHEMA_OPERATION_RPCS.includes(method.name) ? null : TREE;
      expect(context.targetId, method.name).toBe(expected);
      expect(context.operation, method.name).toBe(
        StoreSchemaApiOperation[upperSnake(method.name) as keyof typeof StoreSchemaApiOperation],
      );
    }
  });

  it('data and identity: their own operations, the tree id for entry RPCs', async () => {
    const { transport, seen } = await recordingHost();
    for (const method of TreeDataService.methods)
      await callMethod(transport, TreeDataService, method, {});
    await callMethod(transport, IdentityService, IdentityService.method.whoAmI, {});
    for (const method of TreeDataService.methods) {
      const context = seen.get(method.name)!;
      expect(context.targetId, method.name).toBe(method.name === 'ListTrees' ? null : TREE);
      expect(context.operation, method.name).toBe(
        StoreDataApiOperation[upperSnake(method.name) as keyof typeof StoreDataApiOperation],
      );
    }
    expect(seen.get('WhoAmI')).toMatchObject({
      operation: StoreIdentityApiOperation.WHO_AM_I,
      targetId: null,
    });
  });

  it('a method a service does not know is presented as that service’s Unknown', () => {
    expect(accessOf(SCHEMA_SERVICE, 'FutureMethod').operation).toBe(
      StoreSchemaApiOperation.UNKNOWN,
    );
    expect(accessOf(BACKUP_SERVICE, 'FutureMethod').operation).toBe(
      StoreBackupApiOperation.UNKNOWN,
    );
    expect(accessOf(DATA_SERVICE, 'FutureMethod').operation).toBe(
      StoreDataApiOperation.UNSPECIFIED,
    );
  });
});

describe('a host-registered credential bridge', () => {
  it('replaces the header bridge: its credential is verified and the caller signs in by it', async () => {
    const host = new StoreApiHost(silentLogger);
    addStoreIdentityApi(host, (setup) => {
      setup.authorizer = rbacAuthorizer;
      // A signed edge header, as a proxy that authenticated the user would add.
      setup.bridge = { resolve: (call) => call.requestHeader.get('x-edge-user') };
      setup.verify = async (credential) => ({
        subject: `edge:${credential}`,
        displayName: credential,
        schemeId: 'edge',
        anonymous: false,
        grants: new Map([['acme', ['viewer']]]),
      });
    });
    const served = await serveHost(host);
    listeners = served.listeners;
    const client = createClient(IdentityService, served.transport);
    const me = await client.whoAmI({}, { headers: { 'x-edge-user': 'alice' } });
    expect(me).toMatchObject({ subject: 'edge:alice', schemeId: 'edge', activeTenant: 'acme' });
    // The default header is not read any more: a bearer token alone is anonymous, which rbac
    // refuses as it refuses any caller without the role (a bad token would be Unauthenticated).
    const whoAmI = IdentityService.method.whoAmI;
    const bearerOnly = { authorization: 'Bearer st_whatever_0123456789abcdef' };
    expect(await callMethod(served.transport, IdentityService, whoAmI, bearerOnly)).toBe(
      Code.PermissionDenied,
    );
  });
});
