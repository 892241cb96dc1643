import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { reason } from '../../../test/support/credential-reason.js';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import { openStorage, type Storage } from '../../storage/database.js';
import { channelOf } from '../../storage/pg-notifications.js';
import { TokenStore } from '../../storage/identity/token-store.js';
import { ApiTokenService } from './api-tokens.js';

// A server caches tokens only while it watches revocations (PostgreSQL NOTIFY, SQLite's
// data_version); the token CLI and other replicas revoke through their own connections.
describe.each(DIALECTS)('API token revocation seen by a caching server (%s)', (dialect) => {
  const freshStorage = storagePerTest(dialect);
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp() {
    const storage = await freshStorage();
    const server = new ApiTokenService(new TokenStore(storage));
    server.cacheWhileRevocationsAreWatched();
    cleanups.push(() => server.close());
    const other: Storage = await openStorage(storage.location);
    cleanups.push(() => other.close());
    const cli = new ApiTokenService(new TokenStore(other));
    const listenerPids = async () => {
      if (!storage.postgres) return [];
      const listening = `listen "${channelOf(storage.postgres, 'api_token_revoked')}"`;
      const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity
        where application_name = 'store-listen' and query = ${listening}`.execute(other.db);
      return rows.map((r) => r.pid);
    };
    if (dialect === 'postgres') await expect.poll(listenerPids).toHaveLength(1);
    /**
     * Revokes behind the watch's back: without NOTIFY on PostgreSQL; on SQLite through the
     * server's own connection, whose commits do not change its data_version.
     */
    const revokeSilently = (id: string) =>
      (dialect === 'postgres' ? other : storage).db
        .updateTable('api_tokens')
        .set({ revoked_at: 1 })
        .where('id', '=', id)
        .execute();
    return { server, cli, listenerPids, revokeSilently, other };
  }

  it('serves a verified token from memory, and refuses it once another process revokes it', async () => {
    const { server, cli, revokeSilently } = await setUp();
    const cached = await cli.issue({ tenant: 'acme', roles: ['viewer'] });
    expect(await reason(server.verify(cached.token))).toBe('ok');
    // Proof that the second verify does not read the table: a silent revocation goes unseen.
    await revokeSilently(cached.info.id);
    expect(await reason(server.verify(cached.token))).toBe('ok');

    const revoked = await cli.issue({ tenant: 'acme', roles: ['viewer'] });
    expect(await reason(server.verify(revoked.token))).toBe('ok');
    expect(await cli.revoke(revoked.info.id)).toBe(true);
    await expect
      .poll(() => reason(server.verify(revoked.token)), { timeout: 2_000 })
      .toBe('revoked');
  });

  it('a revocation by the server itself takes effect at once', async () => {
    const { server, cli } = await setUp();
    const issued = await cli.issue({ tenant: 'acme', roles: ['viewer'] });
    expect(await reason(server.verify(issued.token))).toBe('ok');
    expect(await server.revoke(issued.info.id)).toBe(true);
    expect(await reason(server.verify(issued.token))).toBe('revoked');
  });

  it.runIf(dialect === 'postgres')(
    'stops serving from memory when the watching connection is lost, and resumes once it listens again',
    async () => {
      const { server, cli, listenerPids, revokeSilently, other } = await setUp();
      const issued = await cli.issue({ tenant: 'acme', roles: ['viewer'] });
      expect(await reason(server.verify(issued.token))).toBe('ok');
      const [pid] = await listenerPids();
      await sql`select pg_terminate_backend(${pid})`.execute(other.db);
      await revokeSilently(issued.info.id);
      await expect
        .poll(() => reason(server.verify(issued.token)), { timeout: 2_000 })
        .toBe('revoked');

      await expect.poll(listenerPids, { timeout: 5_000 }).toHaveLength(1);
      const next = await cli.issue({ tenant: 'acme', roles: ['viewer'] });
      await expect
        .poll(
          async () => {
            expect(await reason(server.verify(next.token))).toBe('ok');
            await revokeSilently(next.info.id);
            const seen = await reason(server.verify(next.token));
            await other.db
              .updateTable('api_tokens')
              .set({ revoked_at: null })
              .where('id', '=', next.info.id)
              .execute();
            return seen;
          },
          { timeout: 5_000 },
        )
        .toBe('ok');
    },
  );
});
