import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { IdentityService } from '@store/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';
import { newStorageLocation, removeStorageLocation } from './support/test-storage.js';

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

    t = await startTestServer('sqlite', {}, location);
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
