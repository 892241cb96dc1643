import { Code, ConnectError } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/test-storage.js';
import { startBackupServer, type BackupServer } from './backup-fixture.js';

/** The longest names the server takes, which the console's inputs stop at. */
const BACKUP_NAME_MAX = 200;
const TREE_NAME_MAX = 128;

async function refusal(call: Promise<unknown>): Promise<{ code: Code; message: string } | null> {
  try {
    await call;
    return null;
  } catch (error) {
    const connectError = ConnectError.from(error);
    return { code: connectError.code, message: connectError.rawMessage };
  }
}

describe.each(DIALECTS)('name limits are kept whole or refused, never cut, on %s', (dialect) => {
  let s: BackupServer;
  const longTree = `t${'x'.repeat(TREE_NAME_MAX - 1)}`;

  beforeAll(async () => {
    s = await startBackupServer(dialect);
    await s.put(longTree, { a: { n: 1 } });
  });
  afterAll(async () => s?.t.dispose());

  it('a 200-character backup name of a 128-character tree is stored whole', async () => {
    const name = `customers full baseline ${'y'.repeat(BACKUP_NAME_MAX - 24)}`;
    expect(name).toHaveLength(BACKUP_NAME_MAX);
    const started = await s.backup.startBackup({ name, scope: { treeId: longTree } });
    await s.finish(started.operationId);
    const [backup] = (await s.backup.listBackups({ treeId: longTree })).backups;
    expect(backup?.name).toBe(name);
    expect(backup?.treeId).toBe(longTree);
    const described = await s.backup.describeBackup({ backupId: backup!.backupId });
    expect(described.manifest?.name).toBe(name);
  });

  it('a 201-character backup name is refused with InvalidArgument naming the limit', async () => {
    const refused = await refusal(
      s.backup.startBackup({ name: 'n'.repeat(BACKUP_NAME_MAX + 1), scope: { treeId: longTree } }),
    );
    expect(refused?.code).toBe(Code.InvalidArgument);
    expect(refused?.message).toMatch(/name: .*200 characters/);
  });

  it('a 129-character tree name is refused with InvalidArgument naming the limit', async () => {
    const refused = await refusal(
      s.backup.startBackup({ name: 'too long', scope: { treeId: `${longTree}x` } }),
    );
    expect(refused?.code).toBe(Code.InvalidArgument);
    expect(refused?.message).toMatch(/128 characters/);
  });
});
