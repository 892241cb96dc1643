// The backup engine's tests run against both artifact stores: the directory (the default) and
// S3-compatible object storage, served by one real `rclone serve s3` per test file.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ArtifactStore } from '../../src/engines/backup/artifacts/index.js';
import {
  DirectoryArtifactStore,
  S3ArtifactStore,
} from '../../src/engines/backup/artifacts/index.js';
import {
  S3ObjectStore,
  createS3Client,
} from '../../src/engines/backup/artifacts/object-store/index.js';
import { startTestS3Server, type TestS3Server } from './s3-server.js';

/** Both artifact stores; engine suites run once per store (and per dialect). */
export const ARTIFACT_STORES = ['directory', 's3'] as const;
export type ArtifactStoreKind = (typeof ARTIFACT_STORES)[number];

let shared: Promise<TestS3Server> | undefined;

/**
 * The file's S3 server, started on first use. Its credentials go into process.env, where the
 * SDK's provider chain of an in-process server finds them (each test file is its own process).
 */
export function sharedS3Server(): Promise<TestS3Server> {
  shared ??= startTestS3Server().then((s3) => {
    process.env.AWS_ACCESS_KEY_ID = s3.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.secretAccessKey;
    return s3;
  });
  return shared;
}

/** Stops the file's S3 server if one was started (an afterAll of the file). */
export async function closeSharedS3Server(): Promise<void> {
  const started = shared;
  shared = undefined;
  await (await started)?.close();
}

/** One store under test: its settings for a server, its engine-level object, its bytes at rest. */
export interface StoreUnderTest {
  kind: ArtifactStoreKind;
  /** STORE_* settings for a server using this store (none for the directory default). */
  env: Record<string, string>;
  /** The store as the engine sees it, for a server whose data directory is `dataDir`. */
  open(dataDir: string): ArtifactStore;
  /** Where an artifact's stored bytes lie on this machine (on S3, the file rclone keeps). */
  artifactFile(dataDir: string, tenant: string, backupId: string, artifactId: string): string;
  /** Whether anything of a backup (any artifact or manifest) is stored. */
  backupStored(dataDir: string, tenant: string, backupId: string): Promise<boolean>;
  /** The S3 server behind it (s3 only). */
  s3?: TestS3Server;
  /** The key prefix of this store in the bucket (s3 only). */
  prefix?: string;
}

/** A store for one suite: the directory under the data dir, or a fresh prefix in the bucket. */
export async function storeUnderTest(kind: ArtifactStoreKind): Promise<StoreUnderTest> {
  if (kind === 'directory') {
    const root = (dataDir: string) => join(dataDir, 'artifacts');
    return {
      kind,
      env: {},
      open: (dataDir) => new DirectoryArtifactStore(root(dataDir)),
      artifactFile: (dataDir, tenant, backupId, artifactId) =>
        join(root(dataDir), tenant, backupId, `${artifactId}.ndjson.gz`),
      backupStored: (dataDir, tenant, backupId) =>
        Promise.resolve(existsSync(join(root(dataDir), tenant, backupId))),
    };
  }
  const s3 = await sharedS3Server();
  const prefix = `suite-${randomBytes(5).toString('hex')}`;
  const objects = testObjectStore(s3, prefix);
  return {
    kind,
    env: s3.env(prefix),
    s3,
    prefix,
    open: () => new S3ArtifactStore(objects),
    artifactFile: (_dataDir, tenant, backupId, artifactId) =>
      join(s3.root, s3.bucket, prefix, tenant, backupId, `${artifactId}.ndjson.gz`),
    backupStored: async (_dataDir, tenant, backupId) => {
      for await (const _ of objects.list(`${tenant}/${backupId}/`)) return true;
      return false;
    },
  };
}

/** An object store over the test server's bucket below `prefix`, with its fixed credentials. */
export function testObjectStore(s3: TestS3Server, prefix: string): S3ObjectStore {
  const client = createS3Client(
    { endpoint: s3.endpoint, region: s3.region, forcePathStyle: true },
    { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } },
  );
  return new S3ObjectStore(client, { kind: 's3', bucket: s3.bucket, prefix });
}
