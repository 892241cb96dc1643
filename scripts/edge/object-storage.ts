import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { startManaged, waitUntil, type Managed } from './processes.js';
import { ensureRclone } from './rclone-binary.js';

/**
 * The edge topology's object storage: `rclone serve s3` (SigV4-checked, multipart uploads) on a
 * free loopback port over a folder, standing in for AWS S3 or MinIO (docker-compose.yml runs
 * MinIO). The replicas share nothing else but the database: every artifact is an object here.
 */
export interface EdgeObjectStorage {
  process: Managed;
  endpoint: string;
  bucket: string;
  prefix: string;
  /** The folder served: `<root>/<bucket>/<prefix>/<tenant>/<backupId>/<artifact>` on disk. */
  root: string;
  /** The bucket and prefix as a folder: the same layout as a directory artifact store. */
  artifactDir: string;
  accessKeyId: string;
  /** Generated for this run; lives only in the replicas' environment. */
  secretAccessKey: string;
  /** The settings a replica needs to use it. */
  env: Record<string, string>;
}

export async function startEdgeObjectStorage(
  workDir: string,
  logDir: string,
): Promise<EdgeObjectStorage> {
  const rclone = ensureRclone();
  const root = join(workDir, 's3');
  const bucket = 'store-artifacts';
  const prefix = 'edge';
  mkdirSync(join(root, bucket), { recursive: true });
  const accessKeyId = `AKEDGE${randomBytes(7).toString('hex').toUpperCase()}`;
  const secretAccessKey = randomBytes(30).toString('base64url');
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const argv = [
    rclone,
    'serve',
    's3',
    root,
    '--addr',
    `127.0.0.1:${port}`,
    '--auth-key',
    `${accessKeyId},${secretAccessKey}`,
    // No rclone.conf: a plain path is served as the local file system.
    '--config',
    '/dev/null',
  ];
  const managed = startManaged('s3', argv, {
    cwd: workDir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    logFile: join(logDir, 's3.log'),
    watch: 'stdin',
  });
  // Any HTTP answer (an unsigned request is refused) means it listens.
  await waitUntil(
    'the S3 server to listen',
    async () => (await fetch(endpoint)).status > 0,
    15_000,
    managed,
  );
  return {
    process: managed,
    endpoint,
    bucket,
    prefix,
    root,
    artifactDir: join(root, bucket, prefix),
    accessKeyId,
    secretAccessKey,
    env: {
      STORE_ARTIFACT_URL: `s3://${bucket}/${prefix}`,
      STORE_S3_ENDPOINT: endpoint,
      STORE_S3_REGION: 'us-east-1',
      STORE_S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
    },
  };
}
