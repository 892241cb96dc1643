import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, type Interceptor } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BackupControlService, StoreOperationState, TreeDataService } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage } from '../../src/storage/database.js';
import { bulkInsertEntries } from '../../src/storage/data/physical-tree-store.js';
import { ensureTree } from '../../src/storage/data/tree-store.js';
import {
  newStorageLocation,
  removeStorageLocation,
  type TestStorageLocation,
} from '../support/test-storage.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';

const TOKEN = 'disk-full-admin-token-0123456789abcdef';
const TMPFS_SIZE = '2m';

/** Fails the suite loudly when the private mount namespace this test needs cannot be made. */
function requireUnshare(): void {
  const probe = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs /mnt'], {
    encoding: 'utf8',
  });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'the disk-full test needs `unshare -m` and tmpfs mounts (util-linux, root or CAP_SYS_ADMIN): ' +
        (probe.error?.message ?? probe.stderr),
    );
  }
}

describe('the artifact disk filling up during a capture', () => {
  let location: TestStorageLocation;
  let server: ServerProcess;
  const auth: Interceptor = (next) => (req) => {
    req.header.set('authorization', `Bearer ${TOKEN}`);
    return next(req);
  };
  const clients = () => {
    const transport = createGrpcTransport({ baseUrl: server.grpcUrl, interceptors: [auth] });
    return {
      backup: createClient(BackupControlService, transport),
      data: createClient(TreeDataService, transport),
    };
  };

  beforeAll(async () => {
    requireUnshare();
    location = newStorageLocation('sqlite');
    // Random hex barely compresses: ~3 MiB of artifact for a 2 MiB disk.
    const storage = await openStorage(location);
    const tree = await ensureTree(storage, 'default', 'big', Date.now());
    await bulkInsertEntries(
      storage,
      tree.physicalTreeId,
      Array.from({ length: 3000 }, (_, i) => ({
        key: `key-${String(i).padStart(5, '0')}`,
        valueJson: JSON.stringify({ i, noise: randomBytes(1024).toString('hex') }),
        tombstone: false,
        sequence: i + 1,
        schemaVersion: 0,
        updatedAt: Date.now(),
      })),
    );
    await storage.close();
    const artifactDir = join(location.dataDir, 'small-disk');
    mkdirSync(artifactDir);
    server = await spawnServer(location, {
      env: { STORE_BOOTSTRAP_TOKEN: TOKEN, STORE_ARTIFACT_DIR: artifactDir },
      // The tmpfs exists only in the server's private mount namespace, and vanishes with it.
      wrap: (command, args) => [
        'unshare',
        [
          '-m',
          'sh',
          '-c',
          `mount -t tmpfs -o size=${TMPFS_SIZE} tmpfs "$0" && exec "$@"`,
          artifactDir,
          command,
          ...args,
        ],
      ],
    });
  });
  afterAll(async () => {
    await server?.kill();
    if (location) await removeStorageLocation(location);
  });

  async function settle(operationId: string) {
    const { backup } = clients();
    for (;;) {
      const { status } = await backup.getBackupOperationStatus({ operationId });
      if (status && status.state >= StoreOperationState.SUCCEEDED) return status;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('the capture ends FAILED with ResourceExhausted, leaves no catalog row and no files, and the server keeps serving', async () => {
    const { backup, data } = clients();
    const handle = await backup.startBackup({ name: 'too big', scope: { treeId: 'big' } });
    const status = await settle(handle.operationId);
    expect(status.state).toBe(StoreOperationState.FAILED);
    expect(status.error?.code).toBe('resource_exhausted');
    expect(status.error?.message).toMatch(/space/i);
    expect((await backup.listBackups({})).backups).toEqual([]);

    // Still serving, and the failed capture's files are gone: a small backup fits again.
    await data.putEntry({ treeId: 'small', key: 'a', valueJson: '1' });
    const small = await settle(
      (await backup.startBackup({ name: 'fits', scope: { treeId: 'small' } })).operationId,
    );
    expect(small.state, small.error?.message).toBe(StoreOperationState.SUCCEEDED);
    const listed = await backup.listBackups({});
    expect(listed.backups.map((b) => b.name)).toEqual(['fits']);
    // Nothing left for scrub either: the failed capture cleaned up after itself.
    const scrub = await settle(
      (await backup.startCatalogScrub({ pruneOrphans: false })).operationId,
    );
    expect(scrub.result.case === 'scrub' && scrub.result.value.orphansFound).toBe(0);
    expect(server.alive()).toBe(true);
  });
});
