// The shipped entry point and STORE_ARTIFACT_URL: --help lists the artifact and S3 settings; an
// s3:// location the server can reach starts it, while a wrong secret or a missing bucket refuses
// the start with a message naming the setting and the cause, never the secret; a file://
// directory is accepted.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestS3Server } from '../support/s3-server.js';
import { spawnServer, type ServerProcess } from '../support/server-process.js';

const run = promisify(execFile);
const SERVER_DIR = new URL('../..', import.meta.url).pathname;

describe('STORE_ARTIFACT_URL at start-up', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'store-artifact-url-'));
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('--help lists STORE_ARTIFACT_URL and the STORE_S3_* settings with their flags', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', '--help'], {
      cwd: SERVER_DIR,
    });
    expect(stdout).toMatch(/--artifact-url +STORE_ARTIFACT_URL +.*s3:\/\/bucket\/prefix/);
    expect(stdout).toMatch(/--s3-endpoint +STORE_S3_ENDPOINT /);
    expect(stdout).toMatch(/--s3-region +STORE_S3_REGION /);
    expect(stdout).toMatch(/--s3-force-path-style +STORE_S3_FORCE_PATH_STYLE /);
  });

  it('starts on a reachable s3:// location; a wrong secret or a missing bucket refuses the start (exit 2) naming the setting and the cause, never the secret', async () => {
    const s3 = await startTestS3Server();
    const base = { STORE_HTTP_PORT: '0', STORE_GRPC_PORT: '0' };
    const refusal = (env: Record<string, string>) =>
      spawnServer(env).then(
        async (started) => {
          await started.stop();
          return new Error('the server started');
        },
        (error: Error) => error,
      );
    try {
      const reachable = await spawnServer({ ...s3.env('prod'), ...base, STORE_DATA_DIR: dataDir });
      try {
        const health = await fetch(`${reachable.httpUrl}/healthz`);
        expect(await health.json()).toEqual({ status: 'SERVING' });
      } finally {
        await reachable.stop();
      }

      const wrongSecret = `${s3.secretAccessKey.slice(0, -4)}XXXX`;
      const refused = await refusal({
        ...s3.env('prod'),
        ...base,
        AWS_SECRET_ACCESS_KEY: wrongSecret,
        STORE_DATA_DIR: mkdtempSync(join(tmpdir(), 'store-artifact-url-')),
      });
      expect(refused.message).toMatch(
        /server exited \(2\) before listening:[\s\S]*\nstore-server: STORE_ARTIFACT_URL=s3:\/\/store-artifacts\/prod: the S3 server at STORE_S3_ENDPOINT=\S+ refused the credentials/,
      );
      expect(refused.message).toContain('SignatureDoesNotMatch');
      expect(refused.message).not.toContain(wrongSecret);
      expect(refused.message).not.toContain(s3.secretAccessKey);

      const noBucket = await refusal({
        ...s3.env('prod'),
        ...base,
        STORE_ARTIFACT_URL: 's3://no-such-bucket/prod',
        STORE_DATA_DIR: mkdtempSync(join(tmpdir(), 'store-artifact-url-')),
      });
      expect(noBucket.message).toMatch(
        /store-server: STORE_ARTIFACT_URL=s3:\/\/no-such-bucket\/prod: bucket "no-such-bucket" does not exist/,
      );
      expect(noBucket.message).not.toContain(s3.secretAccessKey);
    } finally {
      await s3.close();
    }
  });

  it('accepts a file:// directory as the artifact location and starts', async () => {
    const artifacts = join(dataDir, 'elsewhere');
    server = await spawnServer({
      STORE_DATA_DIR: dataDir,
      STORE_ARTIFACT_URL: pathToFileURL(artifacts).href,
      STORE_HTTP_PORT: '0',
      STORE_GRPC_PORT: '0',
    });
    const health = await fetch(`${server.httpUrl}/healthz`);
    expect(await health.json()).toEqual({ status: 'SERVING' });
  });
});
