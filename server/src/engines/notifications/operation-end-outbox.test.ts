import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import type { Storage } from '../../storage/database.js';
import { insertBackupIfAbsent } from '../../storage/backup/backup-store.js';
import { listDeliveryViews } from '../../storage/notifications/outbox-store.js';
import { OperationStore } from '../../storage/operations/operation-store.js';
import { NotificationChannels } from './notification-channels.js';
import { outboxOnOperationEnd } from './notification-events.js';
import { DEFAULT_NOTIFICATION_TIMING } from './notification-settings.js';

const NOW = Date.UTC(2026, 0, 5, 12);

/** A webhook channel of tenant acme for one event, not delivering (the outbox alone is read). */
async function webhookChannel(storage: Storage, name: string, event: string): Promise<string> {
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
  const { channel } = await channels.create(
    'acme',
    {
      name,
      events: [event],
      webhook: { url: `http://127.0.0.1:9/${name}` },
      deadLetterThreshold: 0,
    },
    'admin',
  );
  return channel.id;
}

describe.each(DIALECTS)('events written with the end of an operation on %s', (dialect) => {
  const open = storagePerTest(dialect);
  let storage: Storage;
  let channelId: string;
  beforeEach(async () => {
    storage = await open();
    channelId = await webhookChannel(storage, 'hook', 'BACKUP_FAILED');
  });

  async function running(store: OperationStore, id: string) {
    const { row } = await store.insertIfTrackingIdFree({
      id,
      tenant: 'acme',
      kind: 'BACKUP',
      target_id: 'orders',
      tracking_id: null,
      request_json: '{}',
      request_fingerprint: 'x',
      created_by: 'admin',
      created_at: NOW,
    });
    await store.claim(row, 'replica-a', NOW, 1000, { resumableKinds: [], maxAttempts: 5 });
  }

  it('a held run that fails, and an interrupted run failed by the orphan sweep, each write their event', async () => {
    const store = new OperationStore(
      storage,
      outboxOnOperationEnd(
        () => NOW,
        () => {},
      ),
    );
    await running(store, 'op-held');
    const ended = await store.finish(
      { id: 'op-held', owner: 'replica-a', attempt: 1 },
      { state: 'FAILED', errorCode: 'internal', errorMessage: 'disk gone' },
      NOW,
    );
    expect(ended).toBe(true);
    // A second finish by a claim that no longer holds it changes nothing, and writes nothing.
    expect(
      await store.finish(
        { id: 'op-held', owner: 'replica-a', attempt: 1 },
        { state: 'FAILED', errorCode: 'internal', errorMessage: 'again' },
        NOW,
      ),
    ).toBe(false);
    await running(store, 'op-orphan');
    expect(await store.failOrphans(NOW + 5000, { resumableKinds: [], maxAttempts: 5 })).toBe(1);
    const log = await listDeliveryViews(storage, 'acme', channelId, 10);
    expect(log.map((d) => [d.operationId, d.kind, d.state]).sort()).toEqual([
      ['op-held', 'BACKUP_FAILED', 'PENDING'],
      ['op-orphan', 'BACKUP_FAILED', 'PENDING'],
    ]);
    expect(log.find((d) => d.operationId === 'op-orphan')?.summary).toMatch(
      /^Backup of orders failed \(aborted: interrupted: the server running it stopped\)$/,
    );
  });

  it('a drill that could not finish is RESTORE_DRILL_FAILED naming its backup and, from the catalog, its tree', async () => {
    const drillChannelId = await webhookChannel(storage, 'drills', 'RESTORE_DRILL_FAILED');
    await insertBackupIfAbsent(storage, {
      tenant: 'acme',
      id: 'bk-1',
      name: 'orders nightly',
      kind: 'FULL',
      treeName: 'orders',
      keyPrefix: '',
      baseBackupId: null,
      setId: null,
      physicalTreeId: 'pt-1',
      createdAt: NOW,
      completedAt: NOW,
      toSequence: 1,
      manifestJson: '{}',
    });
    const store = new OperationStore(
      storage,
      outboxOnOperationEnd(
        () => NOW,
        () => {},
      ),
    );
    const { row } = await store.insertIfTrackingIdFree({
      id: 'op-drill',
      tenant: 'acme',
      kind: 'RESTORE_DRILL',
      target_id: 'bk-1',
      tracking_id: null,
      request_json: JSON.stringify({ backupId: 'bk-1' }),
      request_fingerprint: 'x',
      created_by: 'admin',
      created_at: NOW,
    });
    await store.claim(row, 'replica-a', NOW, 1000, { resumableKinds: [], maxAttempts: 5 });
    await store.finish(
      { id: 'op-drill', owner: 'replica-a', attempt: 1 },
      { state: 'FAILED', errorCode: 'unavailable', errorMessage: 'the object storage is away' },
      NOW,
    );
    const [delivery, ...more] = await listDeliveryViews(storage, 'acme', drillChannelId, 10);
    expect(more).toEqual([]);
    expect(delivery).toMatchObject({
      kind: 'RESTORE_DRILL_FAILED',
      scope: 'orders',
      operationId: 'op-drill',
      summary:
        'Restore drill of backup bk-1 could not finish (unavailable: the object storage is away)',
    });
    expect(JSON.parse(delivery!.payloadJson)).toMatchObject({
      backupId: 'bk-1',
      backupName: 'orders nightly',
      reasonKind: 'NOT_FINISHED',
    });
  });

  it('the end and its event commit together: an outbox that cannot be written leaves the run as it was', async () => {
    const failing = new OperationStore(storage, async (tx, row) => {
      await outboxOnOperationEnd(
        () => NOW,
        () => {},
      )(tx, row);
      throw new Error('the outbox write failed');
    });
    await running(failing, 'op-atomic');
    await expect(
      failing.finish(
        { id: 'op-atomic', owner: 'replica-a', attempt: 1 },
        { state: 'FAILED', errorCode: 'internal', errorMessage: 'x' },
        NOW,
      ),
    ).rejects.toThrow('the outbox write failed');
    expect((await failing.get('acme', 'op-atomic'))?.state).toBe('RUNNING');
    expect(await listDeliveryViews(storage, 'acme', channelId, 10)).toEqual([]);
  });
});
