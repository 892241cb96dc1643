import { sql } from 'kysely';
import type { Storage } from '../database.js';
import { channelOf, listenForNotifications } from '../pg-notifications.js';

/** The NOTIFY topic that carries the id of every revoked token (PostgreSQL). */
const REVOKED_TOPIC = 'api_token_revoked';

/** Revocations seen by this process, whichever process or replica revoked. */
export interface RevocationWatch {
  /**
   * Called before serving a token from memory. SQLite has no notifications: it reports through
   * `state(true)` (everything may have changed) when another process committed since last asked.
   */
  check(): void;
  close(): Promise<void>;
}

export interface RevocationHandlers {
  /** `id` was revoked. */
  revoked(id: string): void;
  /** False: revocations may go unseen from now on (connection lost); true: seen again. */
  state(live: boolean): void;
}

/** A stored API token; the secret itself is never stored, only its hash. */
export interface StoredToken {
  id: string;
  tenant: string;
  roles: string[];
  name: string;
  secretHash: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

type Row = {
  id: string;
  tenant: string;
  roles: string;
  name: string;
  secret_hash: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
};

/** last_used_at is kept to this precision (see touch). */
export const TOUCH_GRANULARITY_MS = 60_000;

const fromRow = (row: Row): StoredToken => ({
  id: row.id,
  tenant: row.tenant,
  roles: row.roles.split(',').filter(Boolean),
  name: row.name,
  secretHash: row.secret_hash,
  createdAt: Number(row.created_at),
  expiresAt: row.expires_at === null ? null : Number(row.expires_at),
  revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
  lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
});

/** Every query on api_tokens. */
export class TokenStore {
  constructor(private readonly storage: Storage) {}

  async insert(token: StoredToken): Promise<void> {
    await this.storage.db
      .insertInto('api_tokens')
      .values({
        id: token.id,
        tenant: token.tenant,
        roles: token.roles.join(','),
        name: token.name,
        secret_hash: token.secretHash,
        created_at: token.createdAt,
        expires_at: token.expiresAt,
        revoked_at: token.revokedAt,
        last_used_at: token.lastUsedAt,
      })
      .execute();
  }

  async get(id: string): Promise<StoredToken | undefined> {
    const row = await this.storage.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  /** The token whose secret hashes to `secretHash` (preset tokens carry no id of their own). */
  async getBySecretHash(secretHash: string): Promise<StoredToken | undefined> {
    const row = await this.storage.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('secret_hash', '=', secretHash)
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async list(tenant?: string): Promise<StoredToken[]> {
    let query = this.storage.db.selectFrom('api_tokens').selectAll().orderBy('created_at');
    if (tenant !== undefined) query = query.where('tenant', '=', tenant);
    return (await query.execute()).map(fromRow);
  }

  async count(): Promise<number> {
    const row = await this.storage.db
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Marks a token revoked; false when it does not exist or was already revoked. On PostgreSQL
   * the revocation is announced (NOTIFY, delivered at commit) to every process that watches.
   */
  async revoke(id: string, at: number): Promise<boolean> {
    const { postgres } = this.storage;
    return this.storage.db.transaction().execute(async (tx) => {
      const result = await tx
        .updateTable('api_tokens')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      const revoked = Number(result.numUpdatedRows) > 0;
      if (revoked && postgres) {
        await sql`select pg_notify(${channelOf(postgres, REVOKED_TOPIC)}, ${id})`.execute(tx);
      }
      return revoked;
    });
  }

  /**
   * Watches revocations made anywhere: this process (its own revoke calls), the token CLI and
   * other replicas. PostgreSQL: NOTIFY on a listening connection. SQLite: any commit by another
   * connection since the last check counts as a possible revocation.
   */
  watchRevocations(handlers: RevocationHandlers): RevocationWatch | undefined {
    const { postgres, sqliteDataVersion } = this.storage;
    if (postgres) {
      const listener = listenForNotifications(postgres, REVOKED_TOPIC, {
        notify: (id) => handlers.revoked(id),
        state: (live) => handlers.state(live),
      });
      return { check: () => undefined, close: () => listener.close() };
    }
    if (!sqliteDataVersion) return undefined;
    let seen = sqliteDataVersion();
    handlers.state(true);
    return {
      check() {
        const now = sqliteDataVersion();
        if (now !== seen) {
          seen = now;
          handlers.state(true);
        }
      },
      async close() {
        handlers.state(false);
      },
    };
  }

  /**
   * Records a use, at most once per TOUCH_GRANULARITY_MS per token: every authenticated call
   * touches, and an unconditional UPDATE made each status poll a durable (fsynced) write. A
   * statement that matches no row writes nothing, so the common case costs one indexed read.
   */
  async touch(id: string, at: number): Promise<void> {
    await this.storage.db
      .updateTable('api_tokens')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb('last_used_at', 'is', null),
          eb('last_used_at', '<=', at - TOUCH_GRANULARITY_MS),
        ]),
      )
      .execute();
  }
}
