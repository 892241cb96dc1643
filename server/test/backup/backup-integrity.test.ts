import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:http2';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from '@connectrpc/connect-node';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { BackupControlService, BackupHealthStatus, StoreOperationState } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACT_STORES,
  closeSharedS3Server,
  storeUnderTest,
  type StoreUnderTest,
} from '../support/artifact-stores.js';
import { DEFAULT_EXPORT_CHUNK_BYTES } from '../../src/engines/backup/artifacts/artifact-export.js';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { ADMIN_TOKEN, codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';

afterAll(closeSharedS3Server);

const EXPORT = BackupControlService.method.exportArtifact;
const EXPORT_PATH = `/${BackupControlService.typeName}/${EXPORT.name}`;

/** An ExportArtifact request in its 5-byte envelope, as gRPC and gRPC-Web carry it in binary. */
function exportRequestBody(backupId: string, artifactId: string): Buffer {
  const message = toBinary(EXPORT.input, create(EXPORT.input, { backupId, artifactId }));
  const header = Buffer.alloc(5);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

describe.each(DIALECTS)('backup integrity on %s', (dialect) => {
  describe.each(ARTIFACT_STORES)('with the %s artifact store', (kind) => {
    let store: StoreUnderTest;
    let s: BackupServer;
    beforeAll(async () => {
      store = await storeUnderTest(kind);
      s = await startBackupServer(dialect, store.env);
    });
    afterAll(async () => {
      await s?.t.dispose();
    });

    // The stored bytes at rest: a file in the artifact directory, or the file rclone keeps an
    // object in (damaging it is damage at rest on the S3 server's disk).
    const artifactPath = (backupId: string, artifactId: string) =>
      store.artifactFile(s.t.location.dataDir, 'default', backupId, artifactId);

    /** `count` entries of 80 KB random base64 each, for an artifact of several export chunks. */
    function spanningChunks(count: number): Record<string, unknown> {
      const entries: Record<string, unknown> = {};
      for (let i = 0; i < count; i++) {
        entries[`e${i}`] = { i, pad: randomBytes(60_000).toString('base64') };
      }
      return entries;
    }

    /** `chunks` joined are the stored artifact byte for byte, with the manifest's SHA-256. */
    async function expectTheArtifact(
      chunks: Uint8Array[],
      backupId: string,
      artifact: { artifactId: string; sha256: string },
    ) {
      const joined = Buffer.concat(chunks);
      expect(joined.equals(await readFile(artifactPath(backupId, artifact.artifactId)))).toBe(true);
      expect(createHash('sha256').update(joined).digest('hex')).toBe(artifact.sha256);
    }

    async function fullOf(treeId: string, entries: Record<string, unknown>) {
      await s.put(treeId, entries);
      const handle = await s.backup.startBackup({ name: `full of ${treeId}`, scope: { treeId } });
      const status = await s.finish(handle.operationId);
      if (status.result.case !== 'capture') throw new Error(status.error?.message);
      return status.result.value;
    }

    it('exported chunks concatenated equal the artifact byte for byte and match the manifest sha256', async () => {
      // Random base64 barely compresses: 2.4 MB of artifact spans three 1 MiB chunks.
      const big = spanningChunks(40);
      const full = await fullOf('exp', big);
      const artifact = full.manifest?.artifacts[0];
      if (!artifact) throw new Error('no artifact');
      const chunks: Uint8Array[] = [];
      for await (const chunk of s.backup.exportArtifact({
        backupId: full.backupId,
        artifactId: artifact.artifactId,
      })) {
        expect(chunk.data.length).toBeLessThanOrEqual(DEFAULT_EXPORT_CHUNK_BYTES);
        chunks.push(chunk.data);
      }
      expect(chunks.length).toBeGreaterThan(1);
      await expectTheArtifact(chunks, full.backupId, artifact);
      expect(
        await codeOf(
          (async () => {
            for await (const _ of s.backup.exportArtifact({
              backupId: full.backupId,
              artifactId: 'part-09999',
            }))
              void _;
          })(),
        ),
      ).toBe(Code.NotFound);
    });

    // The binary protocols frame each chunk outside connect (transport/connect/export-frames.ts);
    // JSON goes through connect as every other call does. Every one must carry the same bytes.
    it.each([
      ['gRPC over h2c', 'grpc', true],
      ['gRPC-Web, binary', 'grpc-web', true],
      ['gRPC-Web, JSON', 'grpc-web', false],
      ['Connect, binary', 'connect', true],
      ['Connect, JSON', 'connect', false],
    ] as const)('%s exports the artifact byte for byte', async (_label, protocol, binary) => {
      const full = await fullOf(`exp-${protocol}-${binary}`, spanningChunks(40));
      const artifact = full.manifest?.artifacts[0];
      if (!artifact) throw new Error('no artifact');
      const interceptors = [bearerInterceptor(ADMIN_TOKEN)];
      const transport =
        protocol === 'grpc'
          ? createGrpcTransport({ baseUrl: s.t.server.grpcUrl, interceptors })
          : protocol === 'grpc-web'
            ? createGrpcWebTransport({
                baseUrl: s.t.server.httpUrl,
                httpVersion: '1.1',
                useBinaryFormat: binary,
                interceptors,
              })
            : createConnectTransport({
                baseUrl: s.t.server.httpUrl,
                httpVersion: '1.1',
                useBinaryFormat: binary,
                interceptors,
              });
      const chunks: Uint8Array[] = [];
      for await (const chunk of createClient(BackupControlService, transport).exportArtifact({
        backupId: full.backupId,
        artifactId: artifact.artifactId,
      })) {
        chunks.push(chunk.data);
      }
      expect(chunks.length).toBeGreaterThan(2);
      await expectTheArtifact(chunks, full.backupId, artifact);
    });

    // The server hands Node views of read blocks it reuses; a reader that falls behind makes every
    // write wait for drain. Pause first, then read slowly: every byte must still be the file's.
    it.runIf(dialect === 'sqlite')(
      'a reader that pauses and then reads slowly gets every byte intact (gRPC-Web)',
      async () => {
        const full = await fullOf('exp-slow', spanningChunks(110));
        const artifact = full.manifest?.artifacts[0];
        if (!artifact) throw new Error('no artifact');
        expect(artifact.byteSize).toBeGreaterThan(6n * 1024n * 1024n);
        const body = exportRequestBody(full.backupId, artifact.artifactId);
        const received = await new Promise<Buffer>((resolve, reject) => {
          const req = request(
            `${s.t.server.httpUrl}${EXPORT_PATH}`,
            {
              method: 'POST',
              headers: {
                'content-type': 'application/grpc-web+proto',
                authorization: `Bearer ${ADMIN_TOKEN}`,
              },
            },
            (res) => {
              const pieces: Buffer[] = [];
              res.pause();
              setTimeout(() => {
                res.on('data', (piece: Buffer) => {
                  pieces.push(piece);
                  if (pieces.length % 8 === 0) {
                    res.pause();
                    setTimeout(() => res.resume(), 15);
                  }
                });
                res.on('end', () => resolve(Buffer.concat(pieces)));
                res.resume();
              }, 500);
            },
          );
          req.on('error', reject);
          req.end(body);
        });
        const data: Buffer[] = [];
        let at = 0;
        while (at < received.length && received[at] === 0) {
          const length = received.readUInt32BE(at + 1);
          const chunk = fromBinary(EXPORT.output, received.subarray(at + 5, at + 5 + length));
          data.push(Buffer.from(chunk.data));
          at += 5 + length;
        }
        expect(received[at]).toBe(0x80);
        expect(received.subarray(at + 5).toString()).toMatch(/grpc-status: ?0/);
        const joined = Buffer.concat(data);
        expect(joined.length).toBe(Number(artifact.byteSize));
        expect(createHash('sha256').update(joined).digest('hex')).toBe(artifact.sha256);
      },
    );

    // connect waits for 'drain' forever when an HTTP/1.1 client goes away mid-write, and never
    // ended the export: each abandoned download kept its file open until the GC closed it (with
    // Node's DEP0137 warning, which a later Node turns into a crash).
    it.runIf(dialect === 'sqlite' && kind === 'directory')(
      'a client that goes away mid-export leaves no artifact file open (HTTP/1.1 and h2c)',
      async () => {
        const full = await fullOf('exp-gone', spanningChunks(110));
        const artifact = full.manifest?.artifacts[0];
        if (!artifact) throw new Error('no artifact');
        const body = exportRequestBody(full.backupId, artifact.artifactId);
        const path = EXPORT_PATH;
        const openFiles = () =>
          readdirSync('/proc/self/fd').filter((fd) => {
            try {
              return readlinkSync(`/proc/self/fd/${fd}`).includes(artifact.artifactId);
            } catch {
              return false;
            }
          }).length;
        const abandonHttp1 = () =>
          new Promise<void>((resolve) => {
            const req = request(
              `${s.t.server.httpUrl}${path}`,
              {
                method: 'POST',
                headers: {
                  'content-type': 'application/grpc-web+proto',
                  authorization: `Bearer ${ADMIN_TOKEN}`,
                },
              },
              (res) => {
                res.pause();
                setTimeout(() => {
                  req.destroy();
                  resolve();
                }, 200);
              },
            );
            req.on('error', () => resolve());
            req.end(body);
          });
        const abandonH2c = () =>
          new Promise<void>((resolve) => {
            const session = connect(s.t.server.grpcUrl);
            session.on('error', () => undefined);
            const stream = session.request({
              ':method': 'POST',
              ':path': path,
              'content-type': 'application/grpc+proto',
              te: 'trailers',
              authorization: `Bearer ${ADMIN_TOKEN}`,
            });
            stream.on('error', () => undefined);
            stream.on('response', () =>
              setTimeout(() => {
                session.destroy();
                resolve();
              }, 200),
            );
            stream.pause();
            stream.end(body);
          });
        for (let i = 0; i < 3; i++) {
          await abandonHttp1();
          await abandonH2c();
        }
        const deadline = Date.now() + 5_000;
        while (openFiles() > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(openFiles()).toBe(0);
        // The server still exports the same artifact whole.
        const chunks: Uint8Array[] = [];
        for await (const chunk of s.backup.exportArtifact({
          backupId: full.backupId,
          artifactId: artifact.artifactId,
        })) {
          chunks.push(chunk.data);
        }
        expect(createHash('sha256').update(Buffer.concat(chunks)).digest('hex')).toBe(
          artifact.sha256,
        );
      },
    );

    it('export responses are never compressed, even for a client that offers gzip', async () => {
      const full = await fullOf('exp-gzip', spanningChunks(30));
      const artifact = full.manifest?.artifacts[0];
      if (!artifact) throw new Error('no artifact');
      const body = exportRequestBody(full.backupId, artifact.artifactId);
      const response = await fetch(`${s.t.server.httpUrl}${EXPORT_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/grpc-web+proto',
          'grpc-accept-encoding': 'gzip',
          authorization: `Bearer ${ADMIN_TOKEN}`,
        },
        body,
      });
      const frames = Buffer.from(await response.arrayBuffer());
      const flags: number[] = [];
      for (let at = 0; at < frames.length; at += 5 + frames.readUInt32BE(at + 1)) {
        flags.push(frames[at] ?? -1);
      }
      const data = flags.filter((flag) => (flag & 0x80) === 0);
      expect(data.length).toBeGreaterThan(1);
      // Bit 0 set would mean a compressed message; 0x80 is the trailer frame.
      expect(data.every((flag) => flag === 0)).toBe(true);
      expect(flags.at(-1)).toBe(0x80);
    });

    // Each damage a disk or a careless copy can do; every one must be caught everywhere.
    const DAMAGE: Array<[string, (bytes: Buffer) => Buffer, string]> = [
      [
        'one flipped byte',
        (bytes) => {
          const middle = Math.floor(bytes.length / 2);
          bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
          return bytes;
        },
        'checksum_mismatch',
      ],
      ['the last byte cut off', (bytes) => bytes.subarray(0, bytes.length - 1), 'size_mismatch'],
      ['truncation to half', (bytes) => bytes.subarray(0, bytes.length >> 1), 'size_mismatch'],
    ];

    it.each(DAMAGE)(
      '%s makes health CORRUPT, restore DataLoss with the target unchanged, export DataLoss and scrub report it',
      async (label, damage, problem) => {
        const treeId = `cor-${DAMAGE.findIndex(([l]) => l === label)}`;
        const full = await fullOf(treeId, { a: 1, b: 2, c: 3 });
        const healthy = await s.backup.startBackupHealthCheck({ backupId: full.backupId });
        const ok = await s.finish(healthy.operationId);
        expect(ok.result.case === 'healthReport' && ok.result.value.status).toBe(
          BackupHealthStatus.HEALTHY,
        );

        const artifactId = full.manifest?.artifacts[0]?.artifactId ?? '';
        const path = artifactPath(full.backupId, artifactId);
        await writeFile(path, damage(await readFile(path)));
        await s.put(treeId, { a: 'changed' });
        const before = await s.read(treeId);

        // eslint-disable-next-line @typescript-eslint/no-deprecated -- the obsolete RPC is under test
        const checked = await s.backup.checkBackupHealth({ backupId: full.backupId });
        expect(checked.report?.status).toBe(BackupHealthStatus.CORRUPT);
        expect(checked.report?.issues[0]?.problem).toBe(problem);
        const stored = await s.backup.getBackupHealth({ backupId: full.backupId });
        expect(stored.found).toBe(true);
        expect(stored.report?.status).toBe(BackupHealthStatus.CORRUPT);
        const page = await s.backup.listBackups({ healthStatus: BackupHealthStatus.CORRUPT });
        expect(page.backups.map((b) => b.backupId)).toEqual([full.backupId]);

        const restore = await s.finish(
          (await s.backup.startRestore({ backupId: full.backupId })).operationId,
        );
        expect(restore.state).toBe(StoreOperationState.FAILED);
        expect(restore.error?.code).toBe('data_loss');
        // eslint-disable-next-line @typescript-eslint/no-deprecated -- the obsolete RPC is under test
        expect(await codeOf(s.backup.restoreBackup({ backupId: full.backupId }))).toBe(
          Code.DataLoss,
        );
        expect(await s.read(treeId)).toEqual(before);

        const exported = (async () => {
          for await (const _ of s.backup.exportArtifact({ backupId: full.backupId, artifactId }))
            void _;
        })();
        expect(await codeOf(exported)).toBe(Code.DataLoss);

        const scrub = await s.finish((await s.backup.startCatalogScrub({})).operationId);
        if (scrub.result.case !== 'scrub') throw new Error('no scrub result');
        expect(scrub.result.value.findings).toContainEqual(
          expect.objectContaining({ backupId: full.backupId, artifactId, problem: 'corrupt' }),
        );
        await s.backup.deleteBackup({ backupId: full.backupId });
      },
    );

    it('delete is refused while an incremental depends on a backup, and cascade removes the chain', async () => {
      const full = await fullOf('del', { a: 1 });
      await s.put('del', { b: 2 });
      const incOp = await s.backup.startIncrementalBackup({
        name: 'i',
        scope: { treeId: 'del' },
        baseBackupId: full.backupId,
      });
      const inc = await s.finish(incOp.operationId);
      if (inc.result.case !== 'capture') throw new Error('no capture');
      const incId = inc.result.value.backupId;

      const described = await s.backup.describeBackup({ backupId: incId });
      expect(described.chainBackupIds).toEqual([full.backupId, incId]);
      expect(
        (await s.backup.describeBackup({ backupId: full.backupId })).dependantBackupIds,
      ).toEqual([incId]);

      expect(await store.backupStored(s.t.location.dataDir, 'default', incId)).toBe(true);
      const refused = await codeOf(s.backup.deleteBackup({ backupId: full.backupId }));
      expect(refused).toBe(Code.FailedPrecondition);
      // The refusal says it in words, names not ids.
      const message = await s.backup.deleteBackup({ backupId: full.backupId }).then(
        () => 'ok',
        (error: unknown) => ConnectError.from(error).rawMessage,
      );
      expect(message).toBe(
        'backup “full of del” cannot be deleted alone: a newer incremental backup depends on ' +
          'it (“i”); delete that first, or delete it with them (cascade)',
      );
      const gone = await s.backup.deleteBackup({ backupId: full.backupId, cascade: true });
      expect(gone.deleted).toBe(true);
      expect(new Set(gone.deletedBackupIds)).toEqual(new Set([full.backupId, incId]));
      // Rows and artifacts alike: neither backup's directory is left in the artifact store.
      for (const backupId of [full.backupId, incId]) {
        expect(await store.backupStored(s.t.location.dataDir, 'default', backupId)).toBe(false);
      }
      expect((await s.backup.describeBackup({ backupId: incId })).found).toBe(false);
      expect((await s.backup.deleteBackup({ backupId: full.backupId })).deleted).toBe(false);
    });

    it('a set over two trees stamps one set id on every member; a single scope stamps none', async () => {
      await s.put('set-a', { a: 1 });
      await s.put('set-b', { b: 1 });
      const op = await s.backup.startBackupSet({
        name: 'pair',
        scopes: [{ treeId: 'set-a' }, { treeId: 'set-b' }],
        crossTreeConsistent: true,
      });
      const status = await s.finish(op.operationId);
      if (status.result.case !== 'setCapture') throw new Error(status.error?.message);
      const setId = status.result.value.setManifest?.setId;
      expect(setId).toMatch(/^set_/);
      expect(status.result.value.members.map((m) => m.manifest?.setId)).toEqual([setId, setId]);
      const listed = await s.backup.listBackups({ setId });
      expect(listed.backups).toHaveLength(2);
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the obsolete RPC is under test
      const single = await s.backup.createBackupSet({ name: 'one', scopes: [{ treeId: 'set-a' }] });
      expect(single.setManifest?.setId).toBeUndefined();
      expect(single.members[0]?.manifest?.setId).toBeUndefined();
    });

    it('the catalog pages by keyset with filters and streams every backup', async () => {
      await s.put('pg', { a: 1 });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        // eslint-disable-next-line @typescript-eslint/no-deprecated -- the obsolete RPC is under test
        const made = await s.backup.createBackup({ name: `Paged-${i}`, scope: { treeId: 'pg' } });
        ids.push(made.backupId);
      }
      const seen: string[] = [];
      let pageToken = '';
      do {
        const page = await s.backup.listBackups({
          pageSize: 2,
          pageToken,
          treeId: 'pg',
          nameContains: 'paged-',
        });
        seen.push(...page.backups.map((b) => b.backupId));
        pageToken = page.nextPageToken;
        // A backup made while paging must not shift what is still to come.
        if (seen.length === 2) {
          // eslint-disable-next-line @typescript-eslint/no-deprecated -- the obsolete RPC is under test
          await s.backup.createBackup({ name: 'other', scope: { treeId: 'pg' } });
        }
      } while (pageToken !== '');
      expect(seen).toEqual([...ids].reverse());
      expect(await codeOf(s.backup.listBackups({ pageSize: 1001 }))).toBe(Code.InvalidArgument);
      expect(await codeOf(s.backup.listBackups({ pageToken: 'garbage' }))).toBe(
        Code.InvalidArgument,
      );
      const streamed: string[] = [];
      for await (const m of s.backup.streamBackups({})) streamed.push(m.backupId);
      expect(streamed).toEqual(expect.arrayContaining(ids));
    });
  });
});
