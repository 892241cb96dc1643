import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import type { Storage } from '../../storage/database.js';
import { listDeliveryViews } from '../../storage/notifications/outbox-store.js';
import { AlertConditions } from './alert-conditions.js';
import { NotificationChannels } from './notification-channels.js';
import { DEFAULT_NOTIFICATION_TIMING } from './notification-settings.js';

const NOW = Date.UTC(2026, 0, 5, 12);

describe.each(DIALECTS)('dead letters over a channel threshold on %s', (dialect) => {
  const open = storagePerTest(dialect);
  let storage: Storage;
  let nextId = 1;
  beforeEach(async () => {
    storage = await open();
  });

  async function letters(count: number, tree = 'orders') {
    for (let i = 0; i < count; i++) {
      const id = nextId++;
      await storage.db
        .insertInto('schema_dead_letters')
        .values({
          id,
          tenant: 'acme',
          tree_name: tree,
          key: `k${id}`,
          value_json: '{}',
          reason: 'SCHEMA_VIOLATION',
          errors_json: '[]',
          source_operation_id: null,
          schema_version: 1,
          dead_lettered_at: NOW,
        })
        .execute();
    }
  }

  it('tells each channel once when the pile passes its own threshold, and again after the pile went away', async () => {
    const channels = new NotificationChannels(storage, {
      allowPrivateTargets: true,
      pauseAfter: 10,
      smtp: undefined,
      timeoutMs: 1000,
      deliver: false,
      pollMs: 1000,
      stuckAfterMs: 900_000,
      ...DEFAULT_NOTIFICATION_TIMING,
    });
    const make = (name: string, threshold: number) =>
      channels.create(
        'acme',
        {
          name,
          events: ['DEAD_LETTERS_OVER_THRESHOLD'],
          webhook: { url: 'http://127.0.0.1:9/hook' },
          deadLetterThreshold: threshold,
        },
        'admin',
      );
    const low = (await make('low', 3)).channel;
    const high = (await make('high', 10)).channel;
    const events = async (id: string) =>
      (await listDeliveryViews(storage, 'acme', id, 100)).map((d) => d.summary);
    const conditions = new AlertConditions(storage, 900_000);

    await letters(3);
    expect(await conditions.evaluate(NOW)).toBe(0);
    await letters(2);
    expect(await conditions.evaluate(NOW)).toBe(1);
    expect(await conditions.evaluate(NOW + 60_000)).toBe(0);
    await letters(6);
    expect(await conditions.evaluate(NOW + 120_000)).toBe(1);
    expect(await events(low.id)).toEqual(['5 dead letters pending on orders (over 3)']);
    expect(await events(high.id)).toEqual(['11 dead letters pending on orders (over 10)']);

    // Replayed or discarded: the episode ends; a new pile is a new event.
    await storage.db.updateTable('schema_dead_letters').set({ discarded_at: NOW }).execute();
    expect(await conditions.evaluate(NOW + 180_000)).toBe(0);
    await letters(4);
    expect(await conditions.evaluate(NOW + 240_000)).toBe(1);
    expect(await events(low.id)).toHaveLength(2);
    expect(await events(high.id)).toHaveLength(1);
  });
});
