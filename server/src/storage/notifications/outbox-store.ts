import { randomUUID } from 'node:crypto';
import type { TreeDb } from '../data/tree-db.js';
import './notification-tables.js';

/** An event as the outbox stores it. */
export interface OutboxEvent {
  eventId: string;
  tenant: string;
  /** A NotificationEvent name without its prefix (BACKUP_FAILED, …). */
  kind: string;
  scope: string;
  operationId: string;
  summary: string;
  payload: Record<string, unknown>;
  createdAt: number;
}

/**
 * Writes the event and one delivery per channel of the tenant that chose its kind (SKIPPED for a
 * paused channel), in the caller's transaction: what happened and who is to be told of it commit
 * together or not at all. `onlyChannels` narrows the fan-out (a threshold per channel).
 */
export async function writeOutboxEvent(
  tx: TreeDb,
  event: OutboxEvent,
  onlyChannels?: readonly string[],
): Promise<number> {
  await tx.db
    .insertInto('notification_events')
    .values({
      event_id: event.eventId,
      tenant: event.tenant,
      kind: event.kind,
      scope: event.scope,
      operation_id: event.operationId,
      summary: event.summary,
      payload_json: JSON.stringify(event.payload),
      created_at: event.createdAt,
    })
    .execute();
  const channels = (
    await tx.db
      .selectFrom('notification_channels')
      .select(['id', 'state', 'events_json'])
      .where('tenant', '=', event.tenant)
      .execute()
  ).filter(
    (c) =>
      (event.kind === 'TEST' || (JSON.parse(c.events_json) as string[]).includes(event.kind)) &&
      (onlyChannels === undefined || onlyChannels.includes(c.id)),
  );
  if (channels.length === 0) return 0;
  await tx.db
    .insertInto('notification_deliveries')
    .values(
      channels.map((c) => {
        const skipped = c.state === 'PAUSED' && event.kind !== 'TEST';
        return {
          id: randomUUID(),
          tenant: event.tenant,
          channel_id: c.id,
          event_id: event.eventId,
          state: skipped ? 'SKIPPED' : 'PENDING',
          attempts: 0,
          created_at: event.createdAt,
          next_attempt_at: skipped ? null : event.createdAt,
          last_attempt_at: null,
          delivered_at: null,
          last_response_code: 0,
          last_error: skipped ? 'the channel was paused' : '',
          lease_owner: null,
          lease_expires_at: null,
        };
      }),
    )
    .execute();
  return channels.length;
}

/** Opens a condition episode; false when it is already open (another replica, or earlier). */
export async function openCondition(
  tx: TreeDb,
  tenant: string,
  key: string,
  eventId: string,
  now: number,
): Promise<boolean> {
  const row = await tx.db
    .insertInto('notification_conditions')
    .values({ tenant, condition_key: key, event_id: eventId, opened_at: now })
    .onConflict((oc) => oc.columns(['tenant', 'condition_key']).doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Closes the episodes of `prefix` that are not among `stillOpen` (tenant, key). */
export async function closeConditions(
  handle: TreeDb,
  prefix: string,
  stillOpen: ReadonlySet<string>,
): Promise<void> {
  const rows = await handle.db
    .selectFrom('notification_conditions')
    .select(['tenant', 'condition_key'])
    .where('condition_key', 'like', `${prefix}%`)
    .execute();
  for (const r of rows) {
    if (stillOpen.has(`${r.tenant}\n${r.condition_key}`)) continue;
    await handle.db
      .deleteFrom('notification_conditions')
      .where('tenant', '=', r.tenant)
      .where('condition_key', '=', r.condition_key)
      .execute();
  }
}

export interface DeliveryView {
  id: string;
  channelId: string;
  eventId: string;
  kind: string;
  state: string;
  attempts: number;
  createdAt: number;
  lastAttemptAt: number | null;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  lastResponseCode: number;
  lastError: string;
  summary: string;
  scope: string;
  operationId: string;
  payloadJson: string;
  tenant: string;
}

function deliveryQuery(handle: TreeDb) {
  return handle.db
    .selectFrom('notification_deliveries as d')
    .innerJoin('notification_events as e', 'e.event_id', 'd.event_id')
    .select([
      'd.id as id',
      'd.tenant as tenant',
      'd.channel_id as channelId',
      'd.event_id as eventId',
      'e.kind as kind',
      'd.state as state',
      'd.attempts as attempts',
      'd.created_at as createdAt',
      'd.last_attempt_at as lastAttemptAt',
      'd.next_attempt_at as nextAttemptAt',
      'd.delivered_at as deliveredAt',
      'd.last_response_code as lastResponseCode',
      'd.last_error as lastError',
      'e.summary as summary',
      'e.scope as scope',
      'e.operation_id as operationId',
      'e.payload_json as payloadJson',
    ]);
}

function numbers(v: DeliveryView): DeliveryView {
  const n = (x: number | null) => (x === null ? null : Number(x));
  return {
    ...v,
    createdAt: Number(v.createdAt),
    lastAttemptAt: n(v.lastAttemptAt),
    nextAttemptAt: n(v.nextAttemptAt),
    deliveredAt: n(v.deliveredAt),
  };
}

/** The newest first; keyset after (createdAt, id). */
export async function listDeliveryViews(
  handle: TreeDb,
  tenant: string,
  channelId: string,
  limit: number,
  after?: { createdAt: number; id: string },
): Promise<DeliveryView[]> {
  const rows = await deliveryQuery(handle)
    .where('d.tenant', '=', tenant)
    .$if(channelId !== '', (q) => q.where('d.channel_id', '=', channelId))
    .$if(after !== undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('d.created_at', '<', after!.createdAt),
          eb.and([eb('d.created_at', '=', after!.createdAt), eb('d.id', '<', after!.id)]),
        ]),
      ),
    )
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(numbers);
}

export async function getDeliveryView(handle: TreeDb, id: string) {
  const row = await deliveryQuery(handle).where('d.id', '=', id).executeTakeFirst();
  return row && numbers(row);
}

/** Deliveries due now whose channel is active and whose lease (if any) has run out. */
export async function findDueDeliveries(handle: TreeDb, now: number, limit: number) {
  return handle.db
    .selectFrom('notification_deliveries as d')
    .innerJoin('notification_channels as c', (j) =>
      j.onRef('c.tenant', '=', 'd.tenant').onRef('c.id', '=', 'd.channel_id'),
    )
    .select(['d.id', 'd.attempts'])
    .where('d.state', 'in', ['PENDING', 'RETRYING'])
    .where('d.next_attempt_at', '<=', now)
    .where((eb) =>
      eb.or([eb('d.lease_expires_at', 'is', null), eb('d.lease_expires_at', '<', now)]),
    )
    .where('c.state', '=', 'ACTIVE')
    .orderBy('d.next_attempt_at')
    .limit(limit)
    .execute();
}

/**
 * Takes a delivery if it is still as read (compare-and-set on attempts and an expired or absent
 * lease): of two replicas that found it due, exactly one gets it.
 */
export async function claimDelivery(
  handle: TreeDb,
  candidate: { id: string; attempts: number },
  owner: string,
  now: number,
  leaseMs: number,
): Promise<boolean> {
  const result = await handle.db
    .updateTable('notification_deliveries')
    .set({ lease_owner: owner, lease_expires_at: now + leaseMs, attempts: candidate.attempts + 1 })
    .where('id', '=', candidate.id)
    .where('attempts', '=', candidate.attempts)
    .where('state', 'in', ['PENDING', 'RETRYING'])
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface AttemptOutcome {
  state: 'DELIVERED' | 'RETRYING' | 'FAILED';
  responseCode: number;
  error: string;
  nextAttemptAt: number | null;
}

/** Records an attempt of a delivery this owner holds; false when it no longer holds it. */
export async function recordAttempt(
  handle: TreeDb,
  id: string,
  owner: string,
  outcome: AttemptOutcome,
  now: number,
): Promise<boolean> {
  const result = await handle.db
    .updateTable('notification_deliveries')
    .set({
      state: outcome.state,
      last_attempt_at: now,
      last_response_code: outcome.responseCode,
      last_error: outcome.error,
      next_attempt_at: outcome.nextAttemptAt,
      delivered_at: outcome.state === 'DELIVERED' ? now : null,
      lease_owner: null,
      lease_expires_at: null,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Recent failed operations of the tenant's kinds, finished at or after `since`. */
export async function recentFailedOperations(
  handle: TreeDb,
  tenant: string,
  kinds: readonly string[],
  since: number,
) {
  return handle.db
    .selectFrom('operations')
    .select(['id', 'kind', 'target_id', 'finished_at', 'error_message'])
    .where('tenant', '=', tenant)
    .where('state', '=', 'FAILED')
    .where('kind', 'in', [...kinds])
    .where('finished_at', '>=', since)
    .orderBy('finished_at', 'desc')
    .limit(100)
    .execute();
}

/** Running operations (any tenant, or one) without progress since `before`. */
export async function stuckOperations(handle: TreeDb, before: number, tenant?: string) {
  return handle.db
    .selectFrom('operations')
    .select(['id', 'tenant', 'kind', 'target_id', 'updated_at'])
    .where('state', '=', 'RUNNING')
    .where('updated_at', '<', before)
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .limit(1000)
    .execute();
}

/** The deliveries an event fanned out to. */
export async function deliveriesOfEvent(handle: TreeDb, eventId: string) {
  return handle.db
    .selectFrom('notification_deliveries')
    .select(['id', 'attempts'])
    .where('event_id', '=', eventId)
    .execute();
}
