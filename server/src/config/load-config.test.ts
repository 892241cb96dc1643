import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';
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

  it('accepts a trusted tenant together with allow-all', () => {
    const config = loadConfig({
      env: { STORE_TRUSTED_TENANT: 'acme', STORE_AUTHORIZER: 'allow-all' },
    });
    expect(config.trustedTenant).toBe('acme');
  });
});
