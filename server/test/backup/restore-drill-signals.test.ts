// Issue 36 bullet 6: a failed drill is told like a failed backup. Over a real server on both
// databases and both artifact stores (the directory, and S3 through a real `rclone serve s3`):
// a drill PROVES a backup, then a flipped byte in its stored artifact fails the next drill; the
// RESTORE_DRILL_FAILED event reaches a real webhook receiver, signed, with the reason in words,
// the backup's id and name and its scope; the metrics count both drills and read the last proof
// from the database; the dashboard's "not proven" condition follows the proof.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  RestoreDrillOutcome,
  RestoreDrillReasonKind,
  RestoreDrillService,
  StoreOperationState,
} from '@store/contract';
import {
  DeliveryState,
  NotificationEvent,
  NotificationService,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACT_STORES,
  closeSharedS3Server,
  storeUnderTest,
  type StoreUnderTest,
} from '../support/artifact-stores.js';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { scrape, valueOf } from '../metrics/scrape.js';
import { WebhookReceiver } from '../notifications/webhook-receiver.js';
import { ADMIN_TOKEN, startBackupServer, type BackupServer } from './backup-fixture.js';

const DAY = 86_400_000;

afterAll(closeSharedS3Server);

describe.each(DIALECTS)('drills tell what they found on %s', (dialect) => {
  describe.each(ARTIFACT_STORES)('with the %s artifact store', (kind) => {
    const receiver = new WebhookReceiver();
    let s: BackupServer;
    let target: StoreUnderTest;
    let drills: ReturnType<typeof createClient<typeof RestoreDrillService>>;
    let notify: ReturnType<typeof createClient<typeof NotificationService>>;
    beforeAll(async () => {
      target = await storeUnderTest(kind);
      await receiver.listen();
      s = await startBackupServer(dialect, {
        ...target.env,
        STORE_METRICS_PORT: '0',
        STORE_NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
        STORE_NOTIFY_POLL_MS: '100',
      });
      const transport = createGrpcTransport({
        baseUrl: s.t.server.grpcUrl,
        interceptors: [bearerInterceptor(ADMIN_TOKEN)],
      });
      drills = createClient(RestoreDrillService, transport);
      notify = createClient(NotificationService, transport);
    });
    afterAll(async () => {
      await s?.t.dispose();
      await receiver.close();
    });

    async function drill(backupId: string) {
      const { operationId } = await drills.startRestoreDrill({
        target: { case: 'backupId', value: backupId },
      });
      for (;;) {
        const { status } = await drills.getRestoreDrillStatus({ operationId });
        if (status && status.state >= StoreOperationState.SUCCEEDED) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      return { ...(await drills.getRestoreDrillResult({ operationId })), operationId };
    }

    /** Flips one byte in the middle of each of the backup's stored artifacts. */
    function flipAByte(backupId: string) {
      const folder = dirname(target.artifactFile(s.t.location.dataDir, 'default', backupId, 'x'));
      const artifacts = readdirSync(folder).filter((f) => f.endsWith('.ndjson.gz'));
      expect(artifacts.length).toBeGreaterThan(0);
      for (const name of artifacts) {
        const file = join(folder, name);
        const bytes = readFileSync(file);
        bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
        writeFileSync(file, bytes);
      }
    }

    it('a failed drill reaches a subscribed webhook in words; the metrics count it and keep the last proof', async () => {
      const made = await notify.createChannel({
        name: 'drill watch',
        events: [NotificationEvent.RESTORE_DRILL_FAILED],
        target: { case: 'webhook', value: { url: receiver.url } },
      });
      receiver.secret = made.signingSecret;
      const entries: Record<string, unknown> = {};
      for (let i = 0; i < 40; i++) entries[`k${String(i).padStart(3, '0')}`] = { i };
      await s.put('orders', entries);
      const captured = await s.backup.startBackup({
        name: 'orders nightly',
        scope: { treeId: 'orders' },
      });
      const status = await s.finish(captured.operationId);
      if (status.result.case !== 'capture') throw new Error(status.error?.message ?? 'no capture');
      const backupId = status.result.value.backupId;
      const conditions = s.t.server.notifications.conditions;
      const notProven = async (at: number) =>
        (await conditions.active('default', at)).filter(
          (a) => a.alertName === 'StoreScopeNotProven',
        );
      // Never proven: a tree whose backups are older than 7 days is "not proven".
      expect(await notProven(Date.now() + 6 * DAY)).toEqual([]);
      expect((await notProven(Date.now() + 8 * DAY)).map((a) => [a.scope, a.severity])).toEqual([
        ['orders', 'warning'],
      ]);

      const proven = await drill(backupId);
      expect(proven.outcome).toBe(RestoreDrillOutcome.PROVEN);
      const provenRow = (await drills.listRestoreDrills({ scope: { treeId: 'orders' } })).drills[0];
      const provenAt = Number(provenRow?.finishedAt?.seconds);
      // Proven now: quiet for 7 days after the drill, whatever the backups' age.
      expect(await notProven(provenAt * 1000 + 6 * DAY)).toEqual([]);
      const [stale] = await notProven(provenAt * 1000 + 8 * DAY);
      expect(stale).toMatchObject({ scope: 'orders', operationId: '' });
      expect(stale!.description).toMatch(/last restore drill that proved a backup of orders/);

      flipAByte(backupId);
      const failed = await drill(backupId);
      expect(failed).toMatchObject({
        outcome: RestoreDrillOutcome.FAILED,
        reasonKind: RestoreDrillReasonKind.UNREADABLE_ARTIFACT,
      });

      // Told once, signed, with what failed in words.
      const deadline = Date.now() + 15_000;
      while (receiver.received.length === 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(receiver.received).toHaveLength(1);
      const got = receiver.received[0]!;
      expect(got.verified).toBe(true);
      expect(got.body.type).toBe('store.restore.drill.failed');
      expect(got.body.data).toMatchObject({
        event: 'RESTORE_DRILL_FAILED',
        scope: 'orders',
        operationId: failed.operationId,
        details: {
          backupId,
          backupName: 'orders nightly',
          treeName: 'orders',
          keyPrefix: '',
          reasonKind: 'UNREADABLE_ARTIFACT',
        },
      });
      expect(String(got.body.data.summary)).toMatch(
        new RegExp(`^Restore drill of backup ${backupId} of orders failed: unreadable artifact`),
      );
      const log = await notify.listDeliveries({ channelId: made.channel!.channelId });
      expect(log.deliveries.map((d) => [d.event, d.state, d.operationId])).toEqual([
        [NotificationEvent.RESTORE_DRILL_FAILED, DeliveryState.DELIVERED, failed.operationId],
      ]);

      const { samples } = await scrape(s.t.server.metricsUrl);
      const drillRuns = (outcome: string) =>
        valueOf(samples, 'store_drill_runs_total', { tenant: 'default', outcome });
      expect([drillRuns('proven'), drillRuns('failed')]).toEqual([1, 1]);
      expect(
        valueOf(samples, 'store_backup_runs_total', {
          tenant: 'default',
          kind: 'drill',
          outcome: 'failed',
        }),
      ).toBe(1);
      expect(valueOf(samples, 'store_drill_duration_seconds_count')).toBe(2);
      // The failed drill takes nothing away from the last proof: it is the PROVEN one's end.
      const lastProven = valueOf(samples, 'store_drill_last_proven_timestamp_seconds', {
        tenant: 'default',
        scope: 'orders',
      });
      expect(Math.floor(lastProven ?? 0)).toBe(provenAt);
      const oldest = valueOf(samples, 'store_backup_oldest_timestamp_seconds', {
        tenant: 'default',
        scope: 'orders',
      });
      const [backup] = (await s.backup.listBackups({})).backups;
      expect(Math.floor(oldest ?? 0)).toBe(Number(backup?.completedAt?.seconds));
    });
  });
});
