import type { Selectable } from 'kysely';
import type { TreeDb } from '../data/tree-db.js';
import type { NotificationChannelsTable } from './notification-tables.js';
import './notification-tables.js';

export type ChannelRow = Selectable<NotificationChannelsTable>;

/** A channel row with how many deliveries its log keeps. */
export type ChannelWithCount = ChannelRow & { delivery_count: number };

export async function listChannelRows(handle: TreeDb, tenant: string): Promise<ChannelWithCount[]> {
  const rows = await handle.db
    .selectFrom('notification_channels as c')
    .selectAll('c')
    .select((eb) =>
      eb
        .selectFrom('notification_deliveries as d')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .whereRef('d.tenant', '=', 'c.tenant')
        .whereRef('d.channel_id', '=', 'c.id')
        .as('delivery_count'),
    )
    .where('c.tenant', '=', tenant)
    .orderBy('c.created_at')
    .orderBy('c.id')
    .execute();
  return rows.map((r) => ({ ...r, delivery_count: Number(r.delivery_count ?? 0) }));
}

export async function getChannelRow(
  handle: TreeDb,
  tenant: string,
  id: string,
): Promise<ChannelWithCount | undefined> {
  return (await listChannelRows(handle, tenant)).find((r) => r.id === id);
}

export async function insertChannelRow(handle: TreeDb, row: ChannelRow): Promise<void> {
  await handle.db.insertInto('notification_channels').values(row).execute();
}

/** Compare-and-set on the etag: false when the channel is gone or was changed meanwhile. */
export async function updateChannelRow(
  handle: TreeDb,
  tenant: string,
  id: string,
  expectedEtag: string,
  changes: Partial<ChannelRow>,
): Promise<boolean> {
  const result = await handle.db
    .updateTable('notification_channels')
    .set(changes)
    .where('tenant', '=', tenant)
    .where('id', '=', id)
    .where('etag', '=', expectedEtag)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes the channel (compare-and-set on the etag) and its log; the log's size, or undefined. */
export async function deleteChannelRow(
  handle: TreeDb,
  tenant: string,
  id: string,
  expectedEtag: string,
): Promise<number | undefined> {
  return handle.db.transaction().execute(async (trx) => {
    const gone = await trx
      .deleteFrom('notification_channels')
      .where('tenant', '=', tenant)
      .where('id', '=', id)
      .where('etag', '=', expectedEtag)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) return undefined;
    const deliveries = await trx
      .deleteFrom('notification_deliveries')
      .where('tenant', '=', tenant)
      .where('channel_id', '=', id)
      .executeTakeFirst();
    return Number(deliveries.numDeletedRows);
  });
}

/** Every channel of every tenant that may hear of a dead-letter pile-up (the evaluator's). */
export async function channelsWithEvent(handle: TreeDb, event: string): Promise<ChannelRow[]> {
  const rows = await handle.db.selectFrom('notification_channels').selectAll().execute();
  return rows.filter((r) => (JSON.parse(r.events_json) as string[]).includes(event));
}

/** After a failed attempt: one more failure in a row; paused (with why) at `pauseAfter`. */
export async function countChannelFailure(
  handle: TreeDb,
  tenant: string,
  id: string,
  pauseAfter: number,
  reason: string,
  now: number,
  etag: string,
): Promise<void> {
  const row = await handle.db
    .updateTable('notification_channels')
    .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
    .where('tenant', '=', tenant)
    .where('id', '=', id)
    .returning(['consecutive_failures', 'state'])
    .executeTakeFirst();
  if (!row || row.state !== 'ACTIVE' || row.consecutive_failures < pauseAfter) return;
  await handle.db
    .updateTable('notification_channels')
    .set({ state: 'PAUSED', paused_reason: reason, paused_at: now, updated_at: now, etag })
    .where('tenant', '=', tenant)
    .where('id', '=', id)
    .where('state', '=', 'ACTIVE')
    .execute();
}

/** After a delivered attempt: the run of failures is over. */
export async function resetChannelFailures(handle: TreeDb, tenant: string, id: string) {
  await handle.db
    .updateTable('notification_channels')
    .set({ consecutive_failures: 0 })
    .where('tenant', '=', tenant)
    .where('id', '=', id)
    .where('consecutive_failures', '>', 0)
    .execute();
}
