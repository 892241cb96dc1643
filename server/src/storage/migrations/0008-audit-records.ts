import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { byteOrderedText, int64 } from './column-types.js';

/**
 * The audit trail (issue 18, ASVS V7): one row per state-changing or refused call. Kept apart from
 * operations, with its own retention. Every list is the newest first within one tenant, so each
 * filter has an index that starts with the tenant and ends with the keyset (at, id).
 */
export function auditRecords(dialect: Dialect): Migration {
  const text = byteOrderedText(dialect);
  const big = int64(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_records')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('at', big, (c) => c.notNull())
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('subject', text, (c) => c.notNull())
        .addColumn('service', text, (c) => c.notNull())
        .addColumn('method', text, (c) => c.notNull())
        .addColumn('target_id', text)
        .addColumn('outcome', text, (c) => c.notNull())
        .addColumn('client_address', text, (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .execute();
      const indexes: Array<[string, string[]]> = [
        ['audit_records_by_tenant', ['tenant', 'at', 'id']],
        ['audit_records_by_subject', ['tenant', 'subject', 'at', 'id']],
        ['audit_records_by_method', ['tenant', 'method', 'at', 'id']],
        ['audit_records_by_outcome', ['tenant', 'outcome', 'at', 'id']],
        // The retention sweep deletes by time alone.
        ['audit_records_by_time', ['at']],
      ];
      for (const [name, columns] of indexes) {
        await db.schema.createIndex(name).on('audit_records').columns(columns).execute();
      }
    },
  };
}
