import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import { WebhookReceiver } from '../../../test/notifications/webhook-receiver.js';
import type { Storage } from '../../storage/database.js';
import { withTransaction } from '../../storage/data/tree-db.js';
import { getChannelRow } from '../../storage/notifications/channel-store.js';
import { listDeliveryViews, writeOutboxEvent } from '../../storage/notifications/outbox-store.js';
import { isStoreError } from '../errors.js';
import { DeliveryWorker } from './delivery-worker.js';
import { NotificationChannels } from './notification-channels.js';
import {
  DEFAULT_NOTIFICATION_TIMING,
  backoffMs,
  type NotificationSettings,
} from './notification-settings.js';

const DAY = 86_400_000;
const silent = { warn: () => {} };

function settings(overrides: Partial<NotificationSettings> = {}): NotificationSettings {
  return {
    allowPrivateTargets: true,
    pauseAfter: 1000,
    smtp: undefined,
    timeoutMs: 5000,
    deliver: true,
    pollMs: 1000,
    stuckAfterMs: 900_000,
    ...DEFAULT_NOTIFICATION_TIMING,
    ...overrides,
  };
}

/** A clock the test moves; nothing waits for real time. */
function testClock(start = Date.UTC(2026, 0, 5, 12)) {
  let now = start;
  return { now: () => now, set: (t: number) => (now = t) };
}

async function raise(storage: Storage, tenant: string, createdAt: number, kind = 'BACKUP_FAILED') {
  const eventId = `evt_${randomUUID()}`;
  await withTransaction(storage, (tx) =>
    writeOutboxEvent(tx, {
      eventId,
      tenant,
      kind,
      scope: 'ledger',
      operationId: 'op-1',
      summary: 'Backup of ledger failed',
      payload: {},
      createdAt,
    }),
  );
  return eventId;
}

describe.each(DIALECTS)('delivery worker on %s', (dialect) => {
  const open = storagePerTest(dialect);
  const receiver = new WebhookReceiver();
  beforeAll(() => receiver.listen());
  afterAll(() => receiver.close());

  async function setUp(overrides: Partial<NotificationSettings> = {}) {
    const storage = await open();
    const clock = testClock();
    const s = settings(overrides);
    const channels = new NotificationChannels(storage, s, clock.now);
    const { channel, secret } = await channels.create(
      'acme',
      {
        name: 'hook',
        events: ['BACKUP_FAILED'],
        webhook: { url: receiver.url },
        deadLetterThreshold: 0,
      },
      'admin',
    );
    receiver.secret = secret;
    receiver.received.length = 0;
    const worker = new DeliveryWorker(storage, s, 'replica-a', clock.now, silent);
    return { storage, clock, s, channels, channel, worker };
  }

  it('retries a failing receiver with doubling delays, never before they pass, and gives up after a day as FAILED', async () => {
    const { storage, clock, s, channel, worker } = await setUp();
    receiver.status = () => 503;
    const created = clock.now();
    const eventId = await raise(storage, 'acme', created);
    let attempts = 0;
    for (;;) {
      expect(await worker.tick()).toBe(1);
      attempts += 1;
      const [d] = await listDeliveryViews(storage, 'acme', channel.id, 1);
      expect(d!.attempts).toBe(attempts);
      expect(d!.lastResponseCode).toBe(503);
      if (d!.state === 'FAILED') {
        expect(d!.nextAttemptAt).toBeNull();
        // The next retry would have fallen after a day.
        expect(clock.now() + backoffMs(s, attempts)).toBeGreaterThan(created + DAY);
        break;
      }
      expect(d!.state).toBe('RETRYING');
      expect(d!.nextAttemptAt).toBe(clock.now() + backoffMs(s, attempts));
      // Just before it is due, nothing is sent.
      clock.set(d!.nextAttemptAt! - 1);
      expect(await worker.tick()).toBe(0);
      clock.set(d!.nextAttemptAt!);
    }
    expect(backoffMs(s, 1)).toBe(30_000);
    expect(backoffMs(s, 2)).toBe(60_000);
    expect(backoffMs(s, 20)).toBe(3_600_000);
    expect(attempts).toBeGreaterThan(20);
    expect(receiver.received).toHaveLength(attempts);
    // Every attempt is the same message to the receiver: one webhook-id, each signed.
    expect(new Set(receiver.received.map((r) => r.webhookId))).toEqual(new Set([eventId]));
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    receiver.status = () => 200;
  });

  it('pauses a channel after N failures in a row with the reason; meanwhile events are SKIPPED; resume sends what waited', async () => {
    const { storage, clock, channels, channel, worker } = await setUp({ pauseAfter: 3 });
    receiver.status = () => 500;
    for (let i = 0; i < 3; i++) await raise(storage, 'acme', clock.now());
    await worker.tick();
    const paused = await channels.get('acme', channel.id);
    expect(paused.state).toBe('PAUSED');
    expect(paused.consecutiveFailures).toBe(3);
    expect(paused.pausedReason).toMatch(
      /paused after 3 failed deliveries in a row; the last: HTTP 500/,
    );
    expect(paused.pausedAt).toBe(clock.now());
    const skippedId = await raise(storage, 'acme', clock.now());
    const log = await listDeliveryViews(storage, 'acme', channel.id, 10);
    expect(log.find((d) => d.eventId === skippedId)?.state).toBe('SKIPPED');
    // Paused: a retry falling due is not sent.
    clock.set(clock.now() + DAY / 2);
    expect(await worker.tick()).toBe(0);

    receiver.status = () => 200;
    receiver.received.length = 0;
    const resumed = await channels.resume('acme', channel.id, 'admin');
    expect([resumed.state, resumed.consecutiveFailures, resumed.pausedReason]).toEqual([
      'ACTIVE',
      0,
      '',
    ]);
    expect(await worker.tick()).toBe(3);
    expect(receiver.received).toHaveLength(3);
    const after = await listDeliveryViews(storage, 'acme', channel.id, 10);
    expect(after.map((d) => d.state).sort()).toEqual([
      'DELIVERED',
      'DELIVERED',
      'DELIVERED',
      'SKIPPED',
    ]);
  });

  it('two replicas polling the same outbox send each delivery once', async () => {
    const { storage, clock, s } = await setUp();
    receiver.status = () => 200;
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) ids.add(await raise(storage, 'acme', clock.now()));
    const other = new DeliveryWorker(storage, s, 'replica-b', clock.now, silent);
    const mine = new DeliveryWorker(storage, s, 'replica-a', clock.now, silent);
    const [a, b] = await Promise.all([mine.tick(), other.tick()]);
    expect(a + b).toBe(30);
    expect(receiver.received.map((r) => r.webhookId).sort()).toEqual([...ids].sort());
  });

  it('refuses a private destination at connect time when the setting is off, even if it was allowed at save', async () => {
    const { storage, clock, channel } = await setUp();
    const strict = new DeliveryWorker(
      storage,
      settings({ allowPrivateTargets: false }),
      'replica-strict',
      clock.now,
      silent,
    );
    // Saved while allowed (the receiver's URL names 127.0.0.1); by name, through the lookup too.
    const row = await getChannelRow(storage, 'acme', channel.id);
    expect(JSON.parse(row!.target_json)).toEqual({ url: receiver.url });
    await raise(storage, 'acme', clock.now());
    expect(await strict.tick()).toBe(1);
    const [d] = await listDeliveryViews(storage, 'acme', channel.id, 1);
    expect(d!.state).toBe('FAILED');
    expect(d!.lastError).toMatch(/refused destination: 127\.0\.0\.1 is a loopback address/);
    expect(receiver.received).toHaveLength(0);

    const byName = new NotificationChannels(storage, settings(), clock.now);
    const named = await byName.create(
      'acme',
      {
        name: 'by name',
        events: ['BACKUP_FAILED'],
        webhook: { url: `http://localhost:${receiver.port}/hook` },
        deadLetterThreshold: 0,
      },
      'admin',
    );
    await raise(storage, 'acme', clock.now());
    await strict.tick();
    const [viaName] = await listDeliveryViews(storage, 'acme', named.channel.id, 1);
    expect(viaName!.state).toBe('FAILED');
    expect(viaName!.lastError).toMatch(
      /refused destination: (127\.0\.0\.1|::1) is a loopback address/,
    );
    expect(receiver.received).toHaveLength(0);

    // And at save, with the setting off: InvalidArgument naming the address.
    const strictChannels = new NotificationChannels(
      storage,
      settings({ allowPrivateTargets: false }),
    );
    const refused = await strictChannels
      .create(
        'acme',
        {
          name: 'x',
          events: ['BACKUP_FAILED'],
          webhook: { url: `http://localhost:${receiver.port}/hook` },
          deadLetterThreshold: 0,
        },
        'admin',
      )
      .catch((e: unknown) => e);
    expect(isStoreError(refused) && refused.code).toBe('invalid_argument');
    expect((refused as Error).message).toMatch(/resolves to .*loopback address/);
  });
});
