import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupControlService,
  SchemaControlService,
  StoreOperationState,
  StoreRestoreMode,
  StoreSchemaMode,
  TreeDataService,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';
import { DIALECTS } from './support/test-storage.js';
import { bearerInterceptor } from './support/bearer.js';

const SECRET = 'tenant-other-secret-value';

/** ≥ 200 crafted tree names: traversal, scoping tricks, encodings, NUL, look-alikes, huge names. */
function craftedNames(): string[] {
  const stems = [
    'secret',
    '..',
    '.',
    '../secret',
    '../../secret',
    't/other/secret',
    'other/secret',
    '/secret',
    'secret/',
    't/other',
    '%2e%2e',
    '%2e%2e%2fsecret',
    '..%2fsecret',
    '%2F',
    'secret\u0000',
    '\u0000',
    'sеcret' /* Cyrillic е */,
    'ｓecret' /* full-width */,
    'secret\u200b',
    'secret ',
    ' secret',
    'secret\n',
    'x'.repeat(129),
    'x'.repeat(10_240),
    '',
    'a:b',
    'a;b',
    'a\\b',
    '*',
    '%',
    '_',
    'secret%',
    "secret'",
    'secret"',
    '$(ls)',
    '${x}',
    'secret--',
    "'; drop table entries; --",
    '🙂',
    'ＳＥＣＲＥＴ',
    '..\\secret',
    'SECRET',
    'Secret',
    'secret.',
    '.secret',
    't%2Fother%2Fsecret',
  ];
  const wrappers = [
    (s: string) => s,
    (s: string) => `t/other/${s}`,
    (s: string) => `../${s}`,
    (s: string) => `${s}/..`,
    (s: string) => encodeURIComponent(s),
  ];
  return [...new Set(stems.flatMap((stem) => wrappers.map((wrap) => wrap(stem))))];
}

/** The three services as one tenant's caller sees them. */
function clientsOf(t: TestServer, token: string) {
  const withToken = bearerInterceptor(token);
  const transport = createGrpcTransport({ baseUrl: t.server.grpcUrl, interceptors: [withToken] });
  return {
    data: createClient(TreeDataService, transport),
    backup: createClient(BackupControlService, transport),
    schema: createClient(SchemaControlService, transport),
  };
}
type Clients = ReturnType<typeof clientsOf>;

async function drain<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

const asText = (value: unknown) =>
  JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));

/** Every call an attacker makes with one crafted tree name, across data, backup and schema. */
function attempts(c: Clients, name: string, ownerBackupId: string) {
  return {
    getEntry: () => c.data.getEntry({ treeId: name, key: 'k' }),
    listEntries: () => c.data.listEntries({ treeId: name }),
    deleteEntry: () => c.data.deleteEntry({ treeId: name, key: 'k' }),
    putEntry: () => c.data.putEntry({ treeId: name, key: 'k', valueJson: '"attacker"' }),
    listBackups: () => c.backup.listBackups({ treeId: name }),
    getScopeStatus: () => c.backup.getScopeStatus({ scope: { treeId: name } }),
    probeBackup: () => c.backup.probeCapabilities({ scope: { treeId: name } }),
    restoreInto: () =>
      c.backup.startRestore({
        backupId: ownerBackupId,
        mode: StoreRestoreMode.NEW_TREE,
        targetTreeId: name,
      }),
    getPolicy: () => c.schema.getPolicy({ treeId: name }),
    countDeadLetters: () => c.schema.countDeadLetters({ treeId: name }),
    streamDeadLetters: () => drain(c.schema.streamDeadLetters({ treeId: name })),
    getVersionConfig: () => c.schema.getVersionConfig({ treeId: name }),
  };
}

describe.each(DIALECTS)('tenant isolation on %s', (dialect) => {
  let t: TestServer;
  let owner: Clients;
  let attacker: Clients;
  let ownerBackupId: string;
  let ownerOperationId: string;
  beforeAll(async () => {
    t = await startTestServer(dialect);
    owner = clientsOf(
      t,
      (await t.server.tokens.issue({ tenant: 'other', roles: ['admin'] })).token,
    );
    attacker = clientsOf(
      t,
      (await t.server.tokens.issue({ tenant: 'default', roles: ['admin'] })).token,
    );
    // The owner's tree holds the secret as a value, in a backup, in a policy and a dead letter.
    await owner.data.putEntry({ treeId: 'secret', key: 'k', valueJson: JSON.stringify(SECRET) });
    await owner.schema.setPolicy({
      treeId: 'secret',
      policy: {
        jsonSchema: '{"type":"string"}',
        mode: StoreSchemaMode.ENFORCE,
        description: SECRET,
      },
    });
    await owner.data.putEntry({ treeId: 'secret', key: 'dead', valueJson: `{"s":"${SECRET}"}` });
    const capture = await owner.backup.startBackup({ name: SECRET, scope: { treeId: 'secret' } });
    ownerOperationId = capture.operationId;
    for (;;) {
      const { status } = await owner.backup.getBackupOperationStatus({
        operationId: ownerOperationId,
      });
      if (status && status.state >= StoreOperationState.SUCCEEDED) {
        if (status.result.case !== 'capture') throw new Error(`capture: ${status.error?.message}`);
        ownerBackupId = status.result.value.backupId;
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  });
  afterAll(async () => t?.dispose());

  it('crafted tree names across data, backup and schema RPCs give InvalidArgument or a miss, never another tenant’s data', async () => {
    const names = craftedNames();
    expect(names.length).toBeGreaterThanOrEqual(200);
    const outcomes = new Map<string, number>();
    const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    for (const name of names) {
      const label = JSON.stringify(name).slice(0, 40);
      for (const [rpc, attempt] of Object.entries(attempts(attacker, name, ownerBackupId))) {
        try {
          const text = asText(await attempt());
          expect(text, `${rpc} ${label}`).not.toContain(SECRET);
          expect(text, `${rpc} ${label}`).not.toContain(ownerBackupId);
          count(`${rpc}:miss`);
        } catch (error) {
          const code = ConnectError.from(error).code;
          // NotFound: the owner's backup is absent to this tenant (restoreInto).
          expect(
            [Code.InvalidArgument, Code.ResourceExhausted, Code.NotFound],
            `${rpc} ${label}: ${ConnectError.from(error).message}`,
          ).toContain(code);
          if (code === Code.NotFound) expect(rpc).toBe('restoreInto');
          count(`${rpc}:${Code[code]}`);
        }
      }
    }
    // Both outcomes really happen for every RPC: the corpus holds valid look-alikes and bad names.
    for (const rpc of Object.keys(attempts(attacker, 'x', ownerBackupId))) {
      expect(outcomes.get(`${rpc}:InvalidArgument`) ?? 0, rpc).toBeGreaterThan(100);
      if (rpc !== 'restoreInto') expect(outcomes.get(`${rpc}:miss`) ?? 0, rpc).toBeGreaterThan(0);
    }
    expect(outcomes.get('restoreInto:NotFound') ?? 0).toBeGreaterThan(0);

    // The owner's data is still there and unchanged.
    const entry = await owner.data.getEntry({ treeId: 'secret', key: 'k' });
    expect(entry.entry?.valueJson).toBe(JSON.stringify(SECRET));
    expect((await owner.data.listEntries({ treeId: 'secret' })).entries).toHaveLength(1);
    expect((await owner.schema.countDeadLetters({ treeId: 'secret' })).count).toBe(1);
    expect((await owner.schema.getPolicy({ treeId: 'secret' })).policy?.description).toBe(SECRET);
    expect((await owner.backup.describeBackup({ backupId: ownerBackupId })).found).toBe(true);
  });

  it('another tenant’s backup and operation are absent: not described, not listed, not cancelled', async () => {
    expect((await attacker.backup.describeBackup({ backupId: ownerBackupId })).found).toBe(false);
    expect((await attacker.backup.deleteBackup({ backupId: ownerBackupId })).deleted).toBe(false);
    expect(
      (await attacker.backup.getBackupOperationStatus({ operationId: ownerOperationId })).status,
    ).toBeUndefined();
    expect(
      (await attacker.backup.cancelBackupOperation({ operationId: ownerOperationId })).status,
    ).toBeUndefined();
    expect(
      (await attacker.schema.getSchemaOperationStatus({ operationId: ownerOperationId })).status,
    ).toBeUndefined();
    const listed = asText(await attacker.backup.listBackupOperations({}));
    expect(listed).not.toContain(ownerOperationId);
    expect(asText(await drain(attacker.backup.streamBackups({})))).not.toContain(ownerBackupId);
    const exported = drain(
      attacker.backup.exportArtifact({ backupId: ownerBackupId, artifactId: 'part-00001' }),
    );
    await expect(exported).rejects.toMatchObject({ code: Code.NotFound });
    // Still there for its owner.
    expect((await owner.backup.describeBackup({ backupId: ownerBackupId })).found).toBe(true);
  });
});
