// Downloads in a worker thread, so the client's work (reading frames, hashing) runs on its own
// event loop instead of the server's it measures. Started by downloadInWorker, and reused.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { get } from 'node:http';
import type { Readable } from 'node:stream';
import * as grpc from '@grpc/grpc-js';
import { createClient } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-node';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BackupControlService, backupV1 } from '@store/contract';
import { withToken } from './bench-server.js';
import { grpcH2cServerStream } from './grpc-h2c-stream.js';
import { grpcWebServerStream } from './grpc-web-stream.js';
import type { Download, DownloadJob, S3ObjectJob } from './download.js';
import { serveJobs } from './worker-pool.js';

function downloadStatic(url: string): Promise<Omit<Download, 'ms'>> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`static GET answered ${res.statusCode}`));
        res.resume();
        return;
      }
      const hash = createHash('sha256');
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        hash.update(chunk);
      });
      res.on('end', () => resolve({ bytes, sha256: hash.digest('hex') }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** Reads a file in 1 MiB blocks into one reused buffer and hashes it: the disk's pace. */
async function readDisk(path: string): Promise<Omit<Download, 'ms'>> {
  const handle = await open(path, 'r');
  try {
    const block = Buffer.allocUnsafe(1024 * 1024);
    const hash = createHash('sha256');
    let bytes = 0;
    for (;;) {
      const { bytesRead } = await handle.read(block, 0, block.length, bytes);
      if (bytesRead === 0) break;
      hash.update(block.subarray(0, bytesRead));
      bytes += bytesRead;
    }
    return { bytes, sha256: hash.digest('hex') };
  } finally {
    await handle.close();
  }
}

/** GetObject with the AWS SDK, the body hashed as it arrives: what any S3 tool pays. */
async function getObject(client: S3Client, s3: S3ObjectJob): Promise<Omit<Download, 'ms'>> {
  const { Body } = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: s3.key }));
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of Body as Readable) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

function s3Client(s3: S3ObjectJob): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
}

/** The row's client: gRPC-Web frames parsed as leanly as the static client reads its body. */
async function downloadExport(job: DownloadJob): Promise<Omit<Download, 'ms'>> {
  const hash = createHash('sha256');
  let bytes = 0;
  await grpcWebServerStream({
    url: `${job.baseUrl}/${BackupControlService.typeName}/${BackupControlService.method.exportArtifact.name}`,
    headers: { authorization: `Bearer ${job.token}` },
    input: backupV1.ArtifactExportRequestSchema,
    output: backupV1.ArtifactChunkSchema,
    message: create(backupV1.ArtifactExportRequestSchema, {
      backupId: job.backupId,
      artifactId: job.artifactId,
    }),
    onMessage(chunk) {
      hash.update(chunk.data);
      bytes += chunk.data.length;
    },
  });
  return { bytes, sha256: hash.digest('hex') };
}

/** Native gRPC over h2c (the replica's gRPC port, what Envoy speaks upstream), large windows. */
async function downloadExportH2c(job: DownloadJob): Promise<Omit<Download, 'ms'>> {
  const hash = createHash('sha256');
  let bytes = 0;
  await grpcH2cServerStream({
    baseUrl: job.baseUrl,
    path: `/${BackupControlService.typeName}/${BackupControlService.method.exportArtifact.name}`,
    headers: { authorization: `Bearer ${job.token}` },
    input: backupV1.ArtifactExportRequestSchema,
    output: backupV1.ArtifactChunkSchema,
    message: create(backupV1.ArtifactExportRequestSchema, {
      backupId: job.backupId,
      artifactId: job.artifactId,
    }),
    onMessage(chunk) {
      hash.update(chunk.data);
      bytes += chunk.data.length;
    },
  });
  return { bytes, sha256: hash.digest('hex') };
}

const grpcJsClients = new Map<string, grpc.Client>();

/**
 * The issue's own h2c client: @grpc/grpc-js with a 16 MiB flow-control window, one channel per
 * server kept for every call, protobuf-es decoding. Reported beside row 17 (whose lean client
 * reads frames with less work of its own: see grpc-h2c-stream.ts).
 */
async function downloadExportGrpcJs(job: DownloadJob): Promise<Omit<Download, 'ms'>> {
  const address = job.baseUrl.replace(/^http:\/\//, '');
  let client = grpcJsClients.get(address);
  if (!client) {
    client = new grpc.Client(address, grpc.credentials.createInsecure(), {
      'grpc-node.flow_control_window': 16 * 1024 * 1024,
      'grpc.max_receive_message_length': 8 * 1024 * 1024,
    });
    grpcJsClients.set(address, client);
  }
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${job.token}`);
  const method = BackupControlService.method.exportArtifact;
  const call = client.makeServerStreamRequest(
    `/${BackupControlService.typeName}/${method.name}`,
    (message: backupV1.ArtifactExportRequest) =>
      Buffer.from(toBinary(backupV1.ArtifactExportRequestSchema, message)),
    (bytes: Buffer) => fromBinary(backupV1.ArtifactChunkSchema, bytes),
    create(backupV1.ArtifactExportRequestSchema, {
      backupId: job.backupId,
      artifactId: job.artifactId,
    }),
    metadata,
  );
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of call as AsyncIterable<backupV1.ArtifactChunk>) {
    hash.update(chunk.data);
    bytes += chunk.data.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** connect-node's own gRPC-Web client, reported beside the row (see grpc-web-stream.ts). */
async function downloadExportWithConnect(job: DownloadJob): Promise<Omit<Download, 'ms'>> {
  // As the browser's connect-web transport does: it offers no response compression (the server
  // never compresses export responses anyway).
  const client = createClient(
    BackupControlService,
    createGrpcWebTransport({
      baseUrl: job.baseUrl,
      httpVersion: '1.1',
      acceptCompression: [],
      interceptors: [withToken(job.token)],
    }),
  );
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of client.exportArtifact({
    backupId: job.backupId,
    artifactId: job.artifactId,
  })) {
    hash.update(chunk.data);
    bytes += chunk.data.length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Runs one job: its untimed calls, then one timed. */
async function run(job: DownloadJob): Promise<Download> {
  const s3 = job.s3 && s3Client(job.s3);
  try {
    const once = () =>
      job.kind === 'static'
        ? downloadStatic(`${job.baseUrl}/${job.staticName}`)
        : job.kind === 'export'
          ? downloadExport(job)
          : job.kind === 'export-h2c'
            ? downloadExportH2c(job)
            : job.kind === 'export-grpc-js'
              ? downloadExportGrpcJs(job)
              : job.kind === 'disk'
                ? readDisk(job.path!)
                : job.kind === 's3-get'
                  ? getObject(s3!, job.s3!)
                  : downloadExportWithConnect(job);
    // Page cache, connection, code paths.
    for (let i = 0; i < (job.untimed ?? (job.warmUp ? 1 : 0)); i++) await once();
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const result = await once();
    const ms = performance.now() - t0;
    const used = process.cpuUsage(cpu);
    return { ...result, ms, cpuMs: (used.user + used.system) / 1000 };
  } finally {
    s3?.destroy();
  }
}

serveJobs(async (jobs: DownloadJob | DownloadJob[]) => {
  if (!Array.isArray(jobs)) return run(jobs);
  const results: Download[] = [];
  for (const job of jobs) results.push(await run(job));
  return results;
});
