import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { IdentityService } from '@store/contract';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';
import {
  DIALECTS,
  TEST_DATABASE_URL,
  newStorageLocation,
  removeStorageLocation,
} from './support/test-storage.js';

const run = promisify(execFile);
const cli = fileURLToPath(new URL('../src/cli/token-cli.ts', import.meta.url));

describe('npm run token', () => {
  const location = newStorageLocation('sqlite');
  const env = { ...process.env, STORE_DATA_DIR: location.dataDir };
  const token = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', cli, ...args], {
      env,
      cwd: fileURLToPath(new URL('..', import.meta.url)),
    });
  let t: TestServer | undefined;
  afterAll(async () => {
    await t?.dispose();
    await removeStorageLocation(location);
  });

  it('creates a token shown once, lists it without the secret, and revokes it', async () => {
    // The server made the store; the CLI works on it while the server runs.
    t = await startTestServer('sqlite', {}, location);
    const created = await token(
      'create',
      '--tenant',
      'acme',
      '--role',
      'operator',
      '--name',
      'ci bot',
    );
    const secret = /^(st_\S+)$/m.exec(created.stdout)?.[1];
    expect(secret).toBeDefined();
    const id = /token id: (\S+)/.exec(created.stdout)?.[1];

    const listed = await token('list', '--tenant', 'acme');
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain('active');
    expect(listed.stdout).not.toContain(secret);

    const whoAmI = () =>
      createClient(IdentityService, t!.grpc).whoAmI(
        {},
        { headers: { authorization: `Bearer ${secret}` } },
      );
    expect((await whoAmI()).tenants[0]?.roles).toEqual(['operator']);

    const revoked = await token('revoke', id!);
    expect(revoked.stdout).toContain(`revoked ${id}`);
    const error = await whoAmI().catch((e: unknown) => ConnectError.from(e));
    expect((error as ConnectError).code).toBe(Code.Unauthenticated);

    // Both changes are in the tenant's audit trail, made by "cli".
    const admin = await t.server.tokens.issue({ tenant: 'acme', roles: ['admin'] });
    const { records } = await createClient(IdentityService, t.grpc).listAuditRecords(
      { subject: 'cli' },
      { headers: { authorization: `Bearer ${admin.token}` } },
    );
    expect(records.map((r) => [r.method, r.targetId, r.outcome, r.tenantId])).toEqual([
      ['RevokeToken', id, 'OK', 'acme'],
      ['CreateToken', id, 'OK', 'acme'],
    ]);
  });

  it('refuses an unknown role with a clear message', async () => {
    const failure = await token('create', '--tenant', 'acme', '--role', 'root').catch(
      (e: { stderr: string }) => e,
    );
    expect((failure as { stderr: string }).stderr).toMatch(
      /roles\[0\]: root is not viewer, operator or admin/,
    );
  });
});

describe.each(DIALECTS)('npm run token where the server never ran, on %s', (dialect) => {
  const location = newStorageLocation(dialect);
  afterAll(() => removeStorageLocation(location));
  const tokenCli = (env: Record<string, string>) =>
    run(
      process.execPath,
      ['--import', 'tsx', cli, 'create', '--tenant', 'acme', '--role', 'admin'],
      {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        cwd: fileURLToPath(new URL('..', import.meta.url)),
      },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );

  it('refuses, naming the setting and the server default, and creates nothing', async () => {
    if (dialect === 'sqlite') {
      const dataDir = join(location.dataDir, 'never-started');
      const refused = await tokenCli({ STORE_DATA_DIR: dataDir });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`No store in STORE_DATA_DIR=${dataDir} (no store.sqlite).`);
      expect(refused.stderr).toContain("The server's default is ./data");
      expect(existsSync(dataDir)).toBe(false);
      return;
    }
    const env = { DATABASE_URL: location.databaseUrl!, STORE_PG_SCHEMA: location.postgresSchema! };
    const refused = await tokenCli(env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`STORE_PG_SCHEMA=${location.postgresSchema}`);
    expect(refused.stderr).toContain("the server's migrations never ran there");
    expect(refused.stderr).toContain("The server's default schema is the search path's");
    expect(await schemaExists(location.postgresSchema!)).toBe(false);

    // A schema that exists but holds no store's tables is refused too, and left empty.
    await query(`create schema ${location.postgresSchema}`);
    expect((await tokenCli(env)).code).toBe(2);
    const tables = await query('select count(*)::int as n from pg_tables where schemaname = $1', [
      location.postgresSchema!,
    ]);
    expect(tables.rows[0]).toEqual({ n: 0 });
  });
});

async function query(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

async function schemaExists(schema: string): Promise<boolean> {
  const found = await query('select 1 from pg_namespace where nspname = $1', [schema]);
  return found.rowCount === 1;
}
