import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { durationFromMs } from '@bufbuild/protobuf/wkt';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BackupHealthStatus, StoreOperationState } from '@store/contract';
import {
  DeliveryState,
  NotificationEvent,
  NotificationService,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationStore } from '../../src/storage/operations/operation-store.js';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { ADMIN_TOKEN, startBackupServer, type BackupServer } from '../backup/backup-fixture.js';
import { WebhookReceiver } from './webhook-receiver.js';

const HOUR = 3_600_000;

describe.each(DIALECTS)('alert conditions and condition events on %s', (dialect) => {
  const receiver = new WebhookReceiver();
  let s: BackupServer;
  let notify: ReturnType<typeof createClient<typeof NotificationService>>;
  beforeAll(async () => {
    await receiver.listen();
    // The worker is held: these tests read the outbox, and drive the evaluator's clock by hand.
    s = await startBackupServer(dialect, {
      STORE_NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
      STORE_NOTIFY_DELIVERY: 'false',
    });
    notify = createClient(
      NotificationService,
      createGrpcTransport({
        baseUrl: s.t.server.grpcUrl,
        interceptors: [bearerInterceptor(ADMIN_TOKEN)],
      }),
    );
  });
  afterAll(async () => {
    await s?.t.dispose();
    await receiver.close();
  });

  it('a scheduled scope past twice its cadence is StoreBackupOverdue, and one event per episode', async () => {
    const { channel } = await notify.createChannel({
      name: 'overdue',
      events: [NotificationEvent.BACKUP_OVERDUE],
      target: { case: 'webhook', value: { url: receiver.url } },
    });
    await s.put('orders', { a: 1 });
    const scheduledAt = Date.now();
    await s.backup.scheduleBackup({
      scope: { treeId: 'orders' },
      incremental: false,
      interval: durationFromMs(HOUR),
    });
    const conditions = s.t.server.notifications.conditions;
    expect(
      (await conditions.active('default', scheduledAt + HOUR)).map((a) => a.alertName),
    ).toEqual([]);
    const later = scheduledAt + 3 * HOUR;
    const [overdue] = await conditions.active('default', later);
    expect(overdue).toMatchObject({
      alertName: 'StoreBackupOverdue',
      severity: 'critical',
      scope: 'orders',
    });
    expect(await conditions.evaluate(later)).toBe(1);
    // The same episode, seen again (by this replica or another): no second event.
    expect(await conditions.evaluate(later + 60_000)).toBe(0);
    const log = await notify.listDeliveries({ channelId: channel!.channelId });
    expect(log.deliveries.map((d) => [d.event, d.state, d.scope])).toEqual([
      [NotificationEvent.BACKUP_OVERDUE, DeliveryState.PENDING, 'orders'],
    ]);
    await s.backup.cancelSchedule({ scope: { treeId: 'orders' } });
    // Episode over (nothing scheduled): the evaluator closes it.
    expect(await conditions.evaluate(later + 120_000)).toBe(0);
    expect(await conditions.active('default', later)).toEqual([]);
  });

  it('a due run that has not started 5 minutes after it was due is StoreSchedulerLate, until the schedule moves on', async () => {
    await s.put('ledger', { a: 1 });
    const scheduledAt = Date.now();
    await s.backup.scheduleBackup({
      scope: { treeId: 'ledger' },
      incremental: true,
      interval: durationFromMs(HOUR),
    });
    const conditions = s.t.server.notifications.conditions;
    const lateOnes = async (at: number) =>
      (await conditions.active('default', at)).filter((a) => a.alertName === 'StoreSchedulerLate');
    // Due in an hour: at 64 minutes the run is 4 minutes late, under the rule's 5.
    expect(await lateOnes(scheduledAt + HOUR + 4 * 60_000)).toEqual([]);
    const [late] = await lateOnes(scheduledAt + HOUR + 20 * 60_000);
    expect(late).toMatchObject({ severity: 'warning', scope: 'ledger', operationId: '' });
    expect(late!.summary).toMatch(
      /^Scheduled incremental backup of ledger \(tenant default\) is (19|20) min late$/,
    );
    await s.backup.cancelSchedule({ scope: { treeId: 'ledger' }, incremental: true });
    expect(await lateOnes(scheduledAt + HOUR + 20 * 60_000)).toEqual([]);
  });

  it('an operation without progress is StoreOperationStuck, one event however often it is seen', async () => {
    const { channel } = await notify.createChannel({
      name: 'stuck',
      events: [NotificationEvent.OPERATION_STUCK],
      target: { case: 'webhook', value: { url: receiver.url } },
    });
    // A run held by a replica that stopped reporting (a kind no runner here takes).
    const store = new OperationStore(s.t.server.storage);
    const now = Date.now();
    const { row } = await store.insertIfTrackingIdFree({
      id: 'stuck-op-1',
      tenant: 'default',
      kind: 'NOT_RUN_HERE',
      target_id: 'orders',
      tracking_id: null,
      request_json: '{}',
      request_fingerprint: 'x',
      created_by: 'test',
      created_at: now,
    });
    await store.claim(row, 'elsewhere', now, 24 * HOUR, { resumableKinds: [], maxAttempts: 5 });
    const conditions = s.t.server.notifications.conditions;
    expect(await conditions.active('default', now + 60_000)).toEqual([]);
    const [stuck] = await conditions.active('default', now + HOUR);
    expect(stuck).toMatchObject({
      alertName: 'StoreOperationStuck',
      operationId: 'stuck-op-1',
      scope: 'orders',
    });
    expect(await conditions.evaluate(now + HOUR)).toBe(1);
    expect(await conditions.evaluate(now + 2 * HOUR)).toBe(0);
    const log = await notify.listDeliveries({ channelId: channel!.channelId });
    expect(log.deliveries.map((d) => [d.event, d.operationId])).toEqual([
      [NotificationEvent.OPERATION_STUCK, 'stuck-op-1'],
    ]);
    await store.cancel('default', 'stuck-op-1', now);
    await store.finish(
      { id: 'stuck-op-1', owner: 'elsewhere', attempt: 1 },
      { state: 'CANCELLED' },
      now,
    );
  });

  it('a failed backup is StoreBackupFailed linking its operation, and its event is in the outbox with it', async () => {
    const { channel } = await notify.createChannel({
      name: 'failures',
      events: [NotificationEvent.BACKUP_FAILED, NotificationEvent.BACKUP_SUCCEEDED],
      target: { case: 'webhook', value: { url: receiver.url } },
    });
    await s.put('ledger', { a: 1 });
    const ok = await s.backup.startBackup({ name: 'fine', scope: { treeId: 'ledger' } });
    expect((await s.finish(ok.operationId)).state).toBe(StoreOperationState.SUCCEEDED);
    // A real failure: the artifact directory becomes a file.
    const artifacts = join(s.t.location.dataDir, 'artifacts');
    rmSync(artifacts, { recursive: true, force: true });
    writeFileSync(artifacts, 'not a directory');
    const bad = await s.backup.startBackup({ name: 'broken', scope: { treeId: 'ledger' } });
    expect((await s.finish(bad.operationId)).state).toBe(StoreOperationState.FAILED);
    rmSync(artifacts, { force: true });

    const { alerts } = await notify.listActiveAlerts({});
    const failed = alerts.find((a) => a.alertName === 'StoreBackupFailed');
    expect(failed).toMatchObject({
      severity: 'warning',
      scope: 'ledger',
      operationId: bad.operationId,
    });
    const log = await notify.listDeliveries({ channelId: channel!.channelId });
    expect(log.deliveries.map((d) => [d.event, d.operationId])).toEqual([
      [NotificationEvent.BACKUP_FAILED, bad.operationId],
      [NotificationEvent.BACKUP_SUCCEEDED, ok.operationId],
    ]);
  });

  it('a health check finding a backup missing is one BACKUP_CORRUPT event and StoreBackupCorrupt', async () => {
    const { channel } = await notify.createChannel({
      name: 'corrupt',
      events: [NotificationEvent.BACKUP_CORRUPT],
      target: { case: 'webhook', value: { url: receiver.url } },
    });
    await s.put('stock', { a: 1 });
    const made = await s.backup.startBackup({ name: 'to-lose', scope: { treeId: 'stock' } });
    const done = await s.finish(made.operationId);
    const backupId = done.result.case === 'capture' ? done.result.value.backupId : '';
    expect(backupId).not.toBe('');
    // Its artifacts vanish from the store.
    const artifacts = join(s.t.location.dataDir, 'artifacts');
    rmSync(artifacts, { recursive: true, force: true });
    mkdirSync(artifacts);
    for (let check = 0; check < 2; check++) {
      const op = await s.backup.startBackupHealthCheck({ backupId });
      const checked = await s.finish(op.operationId);
      expect(checked.result.case === 'healthReport' && checked.result.value.status).toBe(
        BackupHealthStatus.MISSING,
      );
    }
    // Two checks, one finding: one event.
    const log = await notify.listDeliveries({ channelId: channel!.channelId });
    expect(log.deliveries.map((d) => [d.event, d.scope])).toEqual([
      [NotificationEvent.BACKUP_CORRUPT, 'stock'],
    ]);
    expect(log.deliveries[0]!.summary).toBe(
      'Backup to-lose of stock found missing by a health check',
    );
    const { alerts } = await notify.listActiveAlerts({});
    expect(alerts.find((a) => a.alertName === 'StoreBackupCorrupt')).toMatchObject({
      severity: 'critical',
      summary: '1 backup(s) of tenant default are missing',
      scope: 'stock',
    });
  });
});
