import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { byteOrderedText, int64 } from './column-types.js';

/** API tokens: stored hashed, with tenant, roles, expiry and revocation. */
export function apiTokens(dialect: Dialect): Migration {
  const text = byteOrderedText(dialect);
  const big = int64(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('api_tokens')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('roles', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('expires_at', big)
        .addColumn('revoked_at', big)
        .addColumn('last_used_at', big)
        .execute();
      await db.schema
        .createIndex('api_tokens_by_tenant')
        .on('api_tokens')
        .column('tenant')
        .execute();
    },
  };
}
