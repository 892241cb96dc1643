import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { byteOrderedText, int64 } from './column-types.js';

/**
 * Notifications (issue 35): channels per tenant, the outbox of events (written in the
 * transaction that records what happened), one delivery per (event, channel) claimed under a
 * lease, and the open condition episodes that make one overdue/stuck/pile-up one event.
 */
export function notifications(dialect: Dialect): Migration {
  const text = byteOrderedText(dialect);
  const big = int64(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('notification_channels')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('events_json', 'text', (c) => c.notNull())
        .addColumn('target_json', 'text', (c) => c.notNull())
        .addColumn('dead_letter_threshold', 'integer', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('secret_hint', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('paused_reason', 'text', (c) => c.notNull())
        .addColumn('paused_at', big)
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.notNull())
        .addColumn('etag', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_channels_pk', ['tenant', 'id'])
        .execute();
      await db.schema
        .createTable('notification_events')
        .addColumn('event_id', text, (c) => c.primaryKey())
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('operation_id', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('payload_json', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('notification_deliveries')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('channel_id', text, (c) => c.notNull())
        .addColumn('event_id', text, (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('next_attempt_at', big)
        .addColumn('last_attempt_at', big)
        .addColumn('delivered_at', big)
        .addColumn('last_response_code', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text', (c) => c.notNull())
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', big)
        .addUniqueConstraint('notification_deliveries_once', ['event_id', 'channel_id'])
        .execute();
      await db.schema
        .createIndex('notification_deliveries_due')
        .on('notification_deliveries')
        .columns(['state', 'next_attempt_at'])
        .execute();
      await db.schema
        .createIndex('notification_deliveries_log')
        .on('notification_deliveries')
        .columns(['tenant', 'channel_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createTable('notification_conditions')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('condition_key', text, (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('opened_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_conditions_pk', ['tenant', 'condition_key'])
        .execute();
    },
  };
}
