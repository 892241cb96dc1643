// Both ProbeCapabilities RPCs report what the configured authorizer would allow, operation by
// operation (spec 000 ProbeCapabilities, spec 001 rule 2), not a fixed role table.
import { createClient } from '@connectrpc/connect';
import {
  BackupControlService,
  SchemaControlService,
  StoreBackupApiOperation,
  StoreSchemaApiOperation,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';
import { DIALECTS } from './support/test-storage.js';

/** Every value of an operation enum but Unknown, read from the contract, not the server's maps. */
function everyOperationBut(enumObject: Record<string, string | number>, unknown: number) {
  return Object.values(enumObject)
    .filter((value): value is number => typeof value === 'number' && value !== unknown)
    .sort((a, b) => a - b);
}
const EVERY_BACKUP_OPERATION = everyOperationBut(
  StoreBackupApiOperation,
  StoreBackupApiOperation.UNKNOWN,
);
const EVERY_SCHEMA_OPERATION = everyOperationBut(
  StoreSchemaApiOperation,
  StoreSchemaApiOperation.UNKNOWN,
);

async function probeBoth(t: TestServer, headers: Record<string, string>) {
  const backup = createClient(BackupControlService, t.grpc);
  const schema = createClient(SchemaControlService, t.grpc);
  const backupProbe = await backup.probeCapabilities({ scope: { treeId: 'orders' } }, { headers });
  const schemaProbe = await schema.probeCapabilities({ treeId: 'orders' }, { headers });
  return {
    backup: [...backupProbe.allowedOperations].sort((a, b) => a - b),
    schema: [...schemaProbe.allowedOperations].sort((a, b) => a - b),
  };
}

describe.each(DIALECTS)('capability probes ask the configured authorizer on %s', (dialect) => {
  const servers: TestServer[] = [];
  let allowAll: TestServer;
  let trusted: TestServer;
  let unguarded: TestServer;
  let rbac: TestServer;
  const viewerOf = async (t: TestServer) => ({
    authorization: `Bearer ${(await t.server.tokens.issue({ tenant: 'default', roles: ['viewer'] })).token}`,
  });
  beforeAll(async () => {
    allowAll = await startTestServer(dialect, { STORE_AUTHORIZER: 'allow-all' });
    trusted = await startTestServer(dialect, {
      STORE_AUTHORIZER: 'allow-all',
      STORE_TRUSTED_TENANT: 'lab',
    });
    unguarded = await startTestServer(dialect, { STORE_REQUIRE_AUTHORIZATION: 'false' });
    rbac = await startTestServer(dialect);
    servers.push(allowAll, trusted, unguarded, rbac);
  });
  afterAll(async () => {
    await Promise.all(servers.map((t) => t.dispose()));
  });

  it('allow-all reports every operation to a viewer, and to an anonymous caller of the trusted tenant', async () => {
    const expected = { backup: EVERY_BACKUP_OPERATION, schema: EVERY_SCHEMA_OPERATION };
    expect(await probeBoth(allowAll, await viewerOf(allowAll))).toEqual(expected);
    expect(await probeBoth(trusted, {})).toEqual(expected);
  });

  it('with RequireAuthorization false no authorizer refuses anything: every operation', async () => {
    expect(await probeBoth(unguarded, await viewerOf(unguarded))).toEqual({
      backup: EVERY_BACKUP_OPERATION,
      schema: EVERY_SCHEMA_OPERATION,
    });
  });

  it('rbac reports a viewer only what its role allows', async () => {
    const probed = await probeBoth(rbac, await viewerOf(rbac));
    expect(probed.backup).toContain(StoreBackupApiOperation.LIST_BACKUPS);
    expect(probed.backup).not.toContain(StoreBackupApiOperation.START_BACKUP);
    expect(probed.schema).toContain(StoreSchemaApiOperation.GET_POLICY);
    expect(probed.schema).not.toContain(StoreSchemaApiOperation.SET_POLICY);
  });
});
