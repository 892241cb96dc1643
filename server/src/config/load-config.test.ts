import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { helpText, loadConfig } from './load-config.js';
import { ConfigError } from './settings.js';

describe('loadConfig', () => {
  it('with nothing set, uses the defaults of DESIGN.md §2', () => {
    const config = loadConfig();
    expect(config.httpPort).toBe(8080);
    expect(config.grpcPort).toBe(50051);
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.artifactDir).toBe(join(config.dataDir, 'artifacts'));
    expect(config.authorizer).toBe('rbac');
    expect(config.requireAuthorization).toBe(true);
    expect(config.credentialHeader).toBe('authorization');
    expect(config.credentialScheme).toBe('Bearer');
    expect(config.activeTenantHeader).toBe('store-active-tenant');
    expect(config.schedulerMinIntervalSeconds).toBe(60);
    expect(config.maxMessageBytes).toBe(4 * 1024 * 1024);
    expect(config.databaseUrl).toBeUndefined();
  });

  it('refuses a STORE_BOOTSTRAP_TOKEN under 32 characters at start-up, naming the setting', () => {
    expect(() => loadConfig({ env: { STORE_BOOTSTRAP_TOKEN: 'short-token-0123' } })).toThrow(
      /STORE_BOOTSTRAP_TOKEN: must be at least 32 characters, got 16/,
    );
    const ok = 'a'.repeat(32);
    expect(loadConfig({ env: { STORE_BOOTSTRAP_TOKEN: ok } }).bootstrapToken).toBe(ok);
  });

  it('gives the bootstrap token 7 days by default; STORE_BOOTSTRAP_TOKEN_TTL changes it', () => {
    expect(loadConfig().bootstrapTokenTtlMs).toBe(7 * 86_400_000);
    const ttl = (value: string) =>
      loadConfig({ env: { STORE_BOOTSTRAP_TOKEN_TTL: value } }).bootstrapTokenTtlMs;
    expect(ttl('12h')).toBe(12 * 3_600_000);
    expect(ttl('never')).toBeNull();
    expect(() => ttl('0d')).toThrow(ConfigError);
    expect(() => ttl('soon')).toThrow(/STORE_BOOTSTRAP_TOKEN_TTL/);
  });

  it('flags win over the environment, which wins over the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-config-'));
    const file = join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({ STORE_HTTP_PORT: 7000, STORE_GRPC_PORT: 7001, STORE_LOG_LEVEL: 'warn' }),
    );
    const config = loadConfig({
      argv: ['--config', file, '--http-port=9000'],
      env: { STORE_HTTP_PORT: '8000', STORE_GRPC_PORT: '8001' },
    });
    expect(config.httpPort).toBe(9000);
    expect(config.grpcPort).toBe(8001);
    expect(config.logLevel).toBe('warn');
  });

  it.each([
    [{ STORE_HTTP_PORT: 'eighty' }, /STORE_HTTP_PORT/],
    [{ STORE_GRPC_PORT: '70000' }, /STORE_GRPC_PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ STORE_AUTHORIZER: 'maybe' }, /STORE_AUTHORIZER/],
    [{ STORE_REQUIRE_AUTHORIZATION: 'perhaps' }, /STORE_REQUIRE_AUTHORIZATION/],
    [{ STORE_MAX_MESSAGE_BYTES: '-1' }, /STORE_MAX_MESSAGE_BYTES/],
    [{ STORE_OIDC_ISSUER: 'http://idp.example.com' }, /STORE_OIDC_ISSUER/],
    [{ STORE_BOOTSTRAP_TENANT: '../x' }, /STORE_BOOTSTRAP_TENANT/],
    [{ STORE_TRUSTED_TENANT: 'acme' }, /STORE_TRUSTED_TENANT/],
  ])('when %j is unusable, start-up stops with a message naming it', (env, name) => {
    expect(() => loadConfig({ env })).toThrow(ConfigError);
    expect(() => loadConfig({ env })).toThrow(name);
  });

  it('when a flag is unknown or lacks a value, it says which', () => {
    expect(() => loadConfig({ argv: ['--htp-port', '1'] })).toThrow(/--htp-port/);
    expect(() => loadConfig({ argv: ['--http-port'] })).toThrow(/--http-port: needs a value/);
  });

  it('STORE_ARTIFACT_URL takes a directory or file:// URL, which becomes the artifact directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-artifacts-'));
    for (const value of [dir, pathToFileURL(dir).href, `${dir}/`]) {
      const config = loadConfig({ env: { STORE_ARTIFACT_URL: value } });
      expect(config.artifactStore).toEqual({ kind: 'directory', path: dir });
      expect(config.artifactDir).toBe(dir);
    }
    const flagged = loadConfig({ argv: [`--artifact-url=file://${dir}`] });
    expect(flagged.artifactDir).toBe(dir);
    const relative = loadConfig({ env: { STORE_ARTIFACT_URL: 'some/artifacts' } });
    expect(relative.artifactDir).toBe(resolve('some/artifacts'));
  });

  it('without STORE_ARTIFACT_URL, STORE_ARTIFACT_DIR or <data dir>/artifacts is the directory', () => {
    const byDir = loadConfig({ env: { STORE_ARTIFACT_DIR: '/srv/a' } });
    expect(byDir.artifactStore).toEqual({ kind: 'directory', path: '/srv/a' });
    expect(byDir.artifactDir).toBe('/srv/a');
    const byData = loadConfig({ env: { STORE_DATA_DIR: '/srv/data' } });
    expect(byData.artifactStore).toEqual({ kind: 'directory', path: '/srv/data/artifacts' });
  });

  it('refuses STORE_ARTIFACT_URL and STORE_ARTIFACT_DIR naming different places', () => {
    const env = { STORE_ARTIFACT_URL: '/srv/a', STORE_ARTIFACT_DIR: '/srv/b' };
    expect(() => loadConfig({ env })).toThrow(/STORE_ARTIFACT_URL and STORE_ARTIFACT_DIR/);
    const same = { STORE_ARTIFACT_URL: 'file:///srv/a', STORE_ARTIFACT_DIR: '/srv/a/' };
    expect(loadConfig({ env: same }).artifactDir).toBe('/srv/a');
  });

  it('checks an s3:// STORE_ARTIFACT_URL in full and keeps it (the start reaches the bucket)', () => {
    const env = {
      STORE_ARTIFACT_URL: 's3://store-backups/prod/eu',
      STORE_S3_ENDPOINT: 'http://127.0.0.1:9000',
      STORE_S3_REGION: 'eu-west-1',
      STORE_S3_FORCE_PATH_STYLE: 'true',
    };
    expect(loadConfig({ env }).artifactStore).toEqual({
      kind: 's3',
      bucket: 'store-backups',
      prefix: 'prod/eu',
    });
    expect(() => loadConfig({ env: { ...env, STORE_ARTIFACT_URL: 's3://Bad_Bucket' } })).toThrow(
      /STORE_ARTIFACT_URL: "Bad_Bucket" is not an S3 bucket name/,
    );
    // An s3:// location and a directory in STORE_ARTIFACT_DIR name different places.
    expect(() => loadConfig({ env: { ...env, STORE_ARTIFACT_DIR: '/srv/a' } })).toThrow(
      /STORE_ARTIFACT_URL and STORE_ARTIFACT_DIR/,
    );
  });

  it('reads the S3 settings from flags, the environment and the file, with their defaults', () => {
    expect(loadConfig()).toMatchObject({
      s3Endpoint: undefined,
      s3Region: 'us-east-1',
      s3ForcePathStyle: false,
    });
    const dir = mkdtempSync(join(tmpdir(), 'store-config-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ STORE_S3_REGION: 'eu-central-1' }));
    const config = loadConfig({
      argv: ['--config', file, '--s3-force-path-style', 'true'],
      env: { STORE_S3_ENDPOINT: 'https://minio.internal:9000/' },
    });
    expect(config).toMatchObject({
      s3Endpoint: 'https://minio.internal:9000',
      s3Region: 'eu-central-1',
      s3ForcePathStyle: true,
    });
  });

  it.each([
    [
      { STORE_ARTIFACT_URL: 'ftp://host/x' },
      /STORE_ARTIFACT_URL: must be a directory, a file:\/\/ URL or an s3/,
    ],
    [
      { STORE_ARTIFACT_URL: 'file://otherhost/x' },
      /STORE_ARTIFACT_URL: "file:\/\/otherhost\/x" is not a usable file/,
    ],
    [{ STORE_ARTIFACT_URL: 's3://b' }, /STORE_ARTIFACT_URL: "b" is not an S3 bucket name/],
    [{ STORE_ARTIFACT_URL: 's3://bkt/a/../b' }, /STORE_ARTIFACT_URL: .*'\.\.' segments/],
    [
      { STORE_ARTIFACT_URL: 's3://bkt:9000/a' },
      /STORE_ARTIFACT_URL: .*put the server in STORE_S3_ENDPOINT/,
    ],
    [{ STORE_ARTIFACT_URL: 's3://bkt/a?versioning=1' }, /STORE_ARTIFACT_URL: .*no \?query/],
    [
      { STORE_S3_ENDPOINT: 'minio:9000' },
      /STORE_S3_ENDPOINT: must be an http:\/\/ or https:\/\/ URL/,
    ],
    [{ STORE_S3_ENDPOINT: 'not a url' }, /STORE_S3_ENDPOINT: is not a valid/],
    [{ STORE_S3_REGION: 'EU West' }, /STORE_S3_REGION: must be a region name/],
    [
      { STORE_S3_FORCE_PATH_STYLE: 'sometimes' },
      /STORE_S3_FORCE_PATH_STYLE: must be true or false/,
    ],
  ])('refuses %j with a message naming the setting', (env, message) => {
    expect(() => loadConfig({ env })).toThrow(ConfigError);
    expect(() => loadConfig({ env })).toThrow(message);
  });

  it('never echoes credentials written into an S3 URL', () => {
    const secret = 'wJalrXUtnFEMIK7MDENGbPxRfiCYSECRETKEY';
    for (const env of [
      { STORE_ARTIFACT_URL: `s3://AKIDEXAMPLE:${secret}@bucket/prefix` },
      { STORE_S3_ENDPOINT: `https://AKIDEXAMPLE:${secret}@minio.internal` },
    ]) {
      let message = '';
      try {
        loadConfig({ env });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/carries no credentials|carry no credentials/);
      expect(message).not.toContain(secret);
    }
  });

  it('--help lists the artifact and S3 settings', () => {
    const help = helpText();
    for (const [flag, env] of [
      ['--artifact-url', 'STORE_ARTIFACT_URL'],
      ['--s3-endpoint', 'STORE_S3_ENDPOINT'],
      ['--s3-region', 'STORE_S3_REGION'],
      ['--s3-force-path-style', 'STORE_S3_FORCE_PATH_STYLE'],
    ]) {
      expect(help).toMatch(new RegExp(`${flag} +${env} `));
    }
  });

  it('accepts a trusted tenant together with allow-all', () => {
    const config = loadConfig({
      env: { STORE_TRUSTED_TENANT: 'acme', STORE_AUTHORIZER: 'allow-all' },
    });
    expect(config.trustedTenant).toBe('acme');
  });
});
