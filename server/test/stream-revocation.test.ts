import { randomBytes } from 'node:crypto';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BackupControlService } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EXPORT_CHUNK_BYTES } from '../src/engines/backup/artifacts/artifact-export.js';
import { bulkInsertEntries } from '../src/storage/data/physical-tree-store.js';
import { resolveTree } from '../src/storage/data/tree-store.js';
import { startBackupServer, type BackupServer } from './backup/backup-fixture.js';
import { bearerInterceptor } from './support/bearer.js';

// A stream checked its credential only when it started: an export of a large artifact, or a
// long StreamBackups, outlived a revocation. With STORE_STREAM_CREDENTIAL_CHECK=1 the stream must
// end Unauthenticated within about a second of the revoke.
describe('an open stream after its token is revoked', () => {
  let s: BackupServer;
  let backupId: string;
  let artifactId: string;
  let chunksInAll: number;
  beforeAll(async () => {
    s = await startBackupServer('sqlite', { STORE_STREAM_CREDENTIAL_CHECK: '1' });
    await s.put('big', { seed: 1 });
    const tree = await resolveTree(s.t.server.storage, 'default', 'big');
    // Random text barely compresses: about 6.5 MB of artifact, some 7 chunks of 1 MiB.
    const entries = Array.from({ length: 6_000 }, (_, i) => ({
      key: `k${String(i).padStart(5, '0')}`,
      valueJson: JSON.stringify({ pad: randomBytes(1000).toString('hex') }),
      tombstone: false,
      sequence: i + 2,
      schemaVersion: 1,
      updatedAt: 1,
    }));
    await bulkInsertEntries(s.t.server.storage, tree!.physicalTreeId, entries);
    const handle = await s.backup.startBackup({ name: 'big', scope: { treeId: 'big' } });
    const status = await s.finish(handle.operationId, 60_000);
    if (status.result.case !== 'capture') throw new Error(status.error?.message);
    backupId = status.result.value.backupId;
    const artifact = status.result.value.manifest!.artifacts[0]!;
    artifactId = artifact.artifactId;
    chunksInAll = Math.ceil(Number(artifact.byteSize) / DEFAULT_EXPORT_CHUNK_BYTES);
  }, 120_000);
  afterAll(async () => {
    await s?.t.dispose();
  });

  it('ends with Unauthenticated instead of running to the end', async () => {
    const issued = await s.t.server.tokens.issue({ tenant: 'default', roles: ['admin'] });
    const transport = createGrpcTransport({
      baseUrl: s.t.server.grpcUrl,
      interceptors: [bearerInterceptor(issued.token)],
    });
    const client = createClient(BackupControlService, transport);
    let chunks = 0;
    let ended: Code | 'ok' = 'ok';
    try {
      for await (const chunk of client.exportArtifact({ backupId, artifactId })) {
        expect(chunk.data.length).toBeGreaterThan(0);
        chunks += 1;
        if (chunks === 1) {
          await s.t.server.tokens.revoke(issued.info.id);
          // A slow reader: the server has to check again before it sends more.
          await new Promise((resolve) => setTimeout(resolve, 1_500));
        }
      }
    } catch (error) {
      ended = ConnectError.from(error).code;
    }
    expect(ended).toBe(Code.Unauthenticated);
    expect(chunksInAll).toBeGreaterThan(4);
    expect(chunks).toBeLessThan(chunksInAll);
  }, 60_000);
});
