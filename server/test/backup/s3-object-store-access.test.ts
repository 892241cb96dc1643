// The start-up check of an s3:// artifact location and the errors S3 operations raise, against a
// real S3 server (rclone serve s3): credentials from the SDK's provider chain, a wrong secret, a
// missing bucket, a server that is down and comes back. No message ever holds the secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/settings.js';
import {
  S3ObjectStore,
  checkObjectStoreAccess,
  createS3Client,
  type S3Settings,
} from '../../src/engines/backup/artifacts/object-store/index.js';
import { StoreError } from '../../src/engines/errors.js';
import { startTestS3Server, type TestS3Server } from '../support/s3-server.js';

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error('expected a failure');
  return error;
}

describe('S3 access checks on a real S3 server (rclone serve s3)', () => {
  let s3: TestS3Server;
  let settings: S3Settings;
  const saved = { ...process.env };

  beforeAll(async () => {
    s3 = await startTestS3Server({ bucket: 'store-artifacts' });
    settings = { endpoint: s3.endpoint, region: s3.region, forcePathStyle: true };
    // The product's way: the SDK's standard provider chain, here its environment variables.
    process.env.AWS_ACCESS_KEY_ID = s3.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.secretAccessKey;
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;
  });
  afterAll(async () => {
    process.env = saved;
    await s3?.close();
  });

  it('passes with the credentials of the provider chain and an existing bucket', async () => {
    const client = createS3Client(settings);
    const location = { kind: 's3', bucket: s3.bucket, prefix: 'prod' } as const;
    await expect(checkObjectStoreAccess(client, location, settings)).resolves.toBeUndefined();
    const stored = await new S3ObjectStore(client, location).put('t/b/a', [Buffer.from('a')]);
    expect(stored.key).toBe('prod/t/b/a');
    client.destroy();
  });

  it('a wrong secret: start-up names the setting and the refusal, never the secret', async () => {
    const wrongSecret = `${s3.secretAccessKey.slice(0, -4)}XXXX`;
    const client = createS3Client(settings, {
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: wrongSecret },
    });
    const location = { kind: 's3', bucket: s3.bucket, prefix: 'prod' } as const;
    const startUp = await failure(checkObjectStoreAccess(client, location, settings));
    expect(startUp).toBeInstanceOf(ConfigError);
    expect(startUp.message).toMatch(
      /^STORE_ARTIFACT_URL=s3:\/\/store-artifacts\/prod: the S3 server at STORE_S3_ENDPOINT=http:\/\/127\.0\.0\.1:\d+ refused the credentials .*SignatureDoesNotMatch.*AWS_ACCESS_KEY_ID/,
    );
    // An operation fails the same way: FailedPrecondition, naming the S3 error.
    const put = await failure(new S3ObjectStore(client, location).put('t/b/x', [Buffer.from('x')]));
    expect(put).toBeInstanceOf(StoreError);
    expect((put as StoreError).code).toBe('failed_precondition');
    expect(put.message).toMatch(/SignatureDoesNotMatch/);
    for (const message of [startUp.message, put.message]) {
      expect(message).not.toContain(wrongSecret);
      expect(message).not.toContain(s3.secretAccessKey);
    }
    client.destroy();
  });

  it('an unknown access key is refused the same way', async () => {
    const client = createS3Client(settings, {
      credentials: { accessKeyId: 'AKNOBODY', secretAccessKey: s3.secretAccessKey },
    });
    const location = { kind: 's3', bucket: s3.bucket, prefix: '' } as const;
    const error = await failure(checkObjectStoreAccess(client, location, settings));
    expect(error.message).toMatch(
      /^STORE_ARTIFACT_URL=s3:\/\/store-artifacts: .*refused the credentials/,
    );
    expect(error.message).not.toContain(s3.secretAccessKey);
    client.destroy();
  });

  it('a missing bucket: start-up names STORE_ARTIFACT_URL and the bucket', async () => {
    const client = createS3Client(settings);
    const location = { kind: 's3', bucket: 'no-such-bucket', prefix: 'x' } as const;
    const error = await failure(checkObjectStoreAccess(client, location, settings));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(
      /^STORE_ARTIFACT_URL=s3:\/\/no-such-bucket\/x: bucket "no-such-bucket" does not exist on the S3 server at STORE_S3_ENDPOINT=.*NoSuchBucket/,
    );
    client.destroy();
  });

  it('a server that is down: start-up names STORE_S3_ENDPOINT; it passes once the server is back', async () => {
    const client = createS3Client(settings, { maxAttempts: 1 });
    const location = { kind: 's3', bucket: s3.bucket, prefix: 'prod' } as const;
    const store = new S3ObjectStore(client, location);
    await store.put('t/b/kept', [Buffer.from('survives a restart')]);
    await s3.stop();
    try {
      const error = await failure(checkObjectStoreAccess(client, location, settings));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.message).toMatch(
        // A kept-alive socket to the stopped server can fail as a reset instead of a refusal.
        /^STORE_S3_ENDPOINT=http:\/\/127\.0\.0\.1:\d+: cannot reach the S3 server for STORE_ARTIFACT_URL=s3:\/\/store-artifacts\/prod \((ECONNREFUSED|ECONNRESET|EPIPE)/,
      );
      const read = await failure(store.get('t/b/kept'));
      expect((read as StoreError).code).toBe('unavailable');
    } finally {
      await s3.restart();
    }
    await expect(checkObjectStoreAccess(client, location, settings)).resolves.toBeUndefined();
    const again = await store.get('t/b/kept');
    expect(again.bytes).toBe('survives a restart'.length);
    again.body.destroy();
    client.destroy();
  });
});
