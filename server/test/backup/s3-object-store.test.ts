// The object-store operations backups in S3 build on, against a real S3 server (rclone serve s3
// over a temp directory, SigV4-checked): streaming multipart put with bounded memory, sha256
// recorded with the object, verified reads, ranges, listing, deletes, aborts and stale uploads.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import { CreateMultipartUploadCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MIN_PART_BYTES,
  S3ObjectStore,
  createS3Client,
} from '../../src/engines/backup/artifacts/object-store/index.js';
import { StoreError } from '../../src/engines/errors.js';
import { startTestS3Server, type TestS3Server } from '../support/s3-server.js';

const MiB = 1024 * 1024;

/** Yields `data` in 64 KiB chunks, only as fast as it is read; counts what it handed out. */
function lazily(data: Buffer, handedOut: { bytes: number }) {
  return (async function* () {
    for (let at = 0; at < data.length; at += 64 * 1024) {
      const chunk = data.subarray(at, at + 64 * 1024);
      handedOut.bytes += chunk.length;
      yield chunk;
    }
  })();
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return error instanceof StoreError ? error.code : `not a StoreError: ${String(error)}`;
}

describe('S3 object store on a real S3 server (rclone serve s3)', () => {
  let s3: TestS3Server;
  let store: S3ObjectStore;
  const data = randomBytes(20 * MiB);
  const dataSha256 = createHash('sha256').update(data).digest('hex');

  beforeAll(async () => {
    s3 = await startTestS3Server();
    const client = createS3Client(
      { endpoint: s3.endpoint, region: s3.region, forcePathStyle: true },
      { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } },
    );
    store = new S3ObjectStore(client, { kind: 's3', bucket: s3.bucket, prefix: 'backups/prod' });
  });
  afterAll(async () => {
    store?.client.destroy();
    await s3?.close();
  });

  it('streams 20 MiB in 5 MiB parts holding at most (queueSize + 1) parts, and records its sha256', async () => {
    const handedOut = { bytes: 0 };
    let mostHeld = 0;
    const acknowledged: number[] = [];
    const queueSize = 2;
    const stored = await store.put('t1/b1/part-00001.ndjson.gz', lazily(data, handedOut), {
      partSize: MIN_PART_BYTES,
      queueSize,
      contentType: 'application/gzip',
      onUploaded: (bytes) => {
        acknowledged.push(bytes);
        mostHeld = Math.max(mostHeld, handedOut.bytes - bytes);
      },
    });
    expect(stored).toEqual({
      key: 'backups/prod/t1/b1/part-00001.ndjson.gz',
      bytes: data.length,
      sha256: dataSha256,
      sha256InMetadata: true,
    });
    // Four parts acknowledged one by one: the source was read while parts were going out, and
    // never more than the parts in flight plus the one being cut were read ahead.
    expect(acknowledged.length).toBe(4);
    expect(mostHeld).toBeLessThanOrEqual((queueSize + 1) * MIN_PART_BYTES);
    expect(mostHeld).toBeLessThan(data.length);

    // The server holds exactly the bytes (rclone stores objects as files) and the sha256.
    const onDisk = readFileSync(join(s3.root, s3.bucket, stored.key));
    expect(createHash('sha256').update(onDisk).digest('hex')).toBe(dataSha256);
    const head = await store.head('t1/b1/part-00001.ndjson.gz');
    expect(head).toMatchObject({ bytes: data.length, sha256: dataSha256 });
  });

  it('reads the object whole (verified against the recorded sha256) and by range', async () => {
    const key = 't1/b1/part-00001.ndjson.gz';
    const whole = await store.get(key, { expect: { bytes: data.length, sha256: dataSha256 } });
    expect(whole.sha256).toBe(dataSha256);
    const read = await buffer(whole.body);
    expect(read.equals(data)).toBe(true);

    const start = 5 * MiB - 10;
    const range = await store.get(key, { range: { start, end: start + 19 } });
    expect(range).toMatchObject({ bytes: 20, objectBytes: data.length });
    expect((await buffer(range.body)).equals(data.subarray(start, start + 20))).toBe(true);
    const tail = await store.get(key, { range: { start: data.length - 3 } });
    expect((await buffer(tail.body)).equals(data.subarray(data.length - 3))).toBe(true);
  });

  it('a read whose bytes differ from the recorded size or sha256 fails with DataLoss', async () => {
    const key = 't1/b2/small.bin';
    const stored = await store.put(key, [Buffer.from('hello, object storage')]);
    const expect0 = { bytes: stored.bytes, sha256: stored.sha256 };
    // The wrong size is known from the response headers, before the first byte.
    await expect(
      codeOf(store.get(key, { expect: { ...expect0, bytes: stored.bytes + 1 } })),
    ).resolves.toBe('data_loss');
    // Damage at rest (same size): the hash at the end of the stream catches it.
    const file = join(s3.root, s3.bucket, stored.key);
    writeFileSync(file, Buffer.from('HELLO, object storage'));
    const damaged = await store.get(key, { expect: expect0 });
    await expect(text(damaged.body)).rejects.toThrow(/sha256 .* recorded 21 bytes with sha256/);
  });

  it('head, list (paginated) and delete work below the prefix only', async () => {
    const keys = ['t2/b1/a', 't2/b1/b', 't2/b2/c', 't2/b2/d', 't2/b3/e'];
    for (const key of keys) await store.put(key, [Buffer.from(key)]);
    await store.put('t3/b1/other', [Buffer.from('x')]);

    const listed = [];
    for await (const object of store.list('t2/', { pageSize: 2 })) listed.push(object);
    expect(listed.map((o) => o.key)).toEqual(keys);
    expect(listed[0]).toMatchObject({ bytes: 7 });
    expect(await store.head('t2/nothing-here')).toBeUndefined();

    await store.delete('t2/b1/a');
    await store.delete('t2/b1/a'); // deleting what is gone is not an error, as in S3
    await store.deleteMany(['t2/b1/b', 't2/b2/c', 't2/b2/d']);
    const left = [];
    for await (const object of store.list('t2/')) left.push(object.key);
    expect(left).toEqual(['t2/b3/e']);
    await expect(codeOf(store.get('t2/b1/a'))).resolves.toBe('not_found');
    expect(() => store.objectKey('t2/../escape')).toThrow(/not an object key/);
  });

  it('an aborted upload leaves no object and no incomplete multipart upload', async () => {
    const controller = new AbortController();
    let partAcknowledged!: () => void;
    const firstPart = new Promise<void>((resolve) => (partAcknowledged = resolve));
    // 7 MiB, then nothing more: the capture is stuck reading when it is aborted.
    const source = (async function* () {
      yield data.subarray(0, 7 * MiB);
      await new Promise(() => {});
    })();
    const put = store.put('t4/b1/aborted.bin', source, {
      signal: controller.signal,
      queueSize: 1,
      onUploaded: () => partAcknowledged(),
    });
    await firstPart;
    const inFlight = [];
    for await (const upload of store.listIncompleteUploads('t4/')) inFlight.push(upload.key);
    expect(inFlight).toEqual(['t4/b1/aborted.bin']);

    controller.abort();
    await expect(codeOf(put)).resolves.toBe('cancelled');
    const left = [];
    for await (const upload of store.listIncompleteUploads()) left.push(upload);
    expect(left).toEqual([]);
    expect(await store.head('t4/b1/aborted.bin')).toBeUndefined();
  });

  it('a source that fails mid-stream fails the put and aborts its multipart upload', async () => {
    const source = (async function* () {
      yield data.subarray(0, 6 * MiB);
      yield data.subarray(6 * MiB, 11 * MiB);
      throw new Error('the database went away');
    })();
    await expect(store.put('t4/b2/failed.bin', source)).rejects.toThrow(
      /uploading s3:\/\/.*failed\.bin: .*the database went away/,
    );
    const left = [];
    for await (const upload of store.listIncompleteUploads()) left.push(upload);
    expect(left).toEqual([]);
    expect(await store.head('t4/b2/failed.bin')).toBeUndefined();
  });

  it('aborts incomplete uploads older than a given age and keeps younger ones', async () => {
    // A capture that died between parts leaves an upload nobody completes or aborts.
    await store.client.send(
      new CreateMultipartUploadCommand({
        Bucket: s3.bucket,
        Key: store.objectKey('t5/b1/part-00001.ndjson.gz'),
      }),
    );
    const day = 86_400_000;
    const young = await store.abortIncompleteUploads({ olderThanMs: day });
    expect(young).toEqual({ aborted: [], kept: 1 });
    const old = await store.abortIncompleteUploads({ olderThanMs: day, now: Date.now() + 2 * day });
    expect(old.kept).toBe(0);
    expect(old.aborted.map((u) => u.key)).toEqual(['t5/b1/part-00001.ndjson.gz']);
    const left = [];
    for await (const upload of store.listIncompleteUploads()) left.push(upload);
    expect(left).toEqual([]);
  });
});
