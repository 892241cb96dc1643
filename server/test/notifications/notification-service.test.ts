import { Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  ChannelKind,
  ChannelState,
  DeliveryState,
  NotificationEvent,
  NotificationService,
  ListChannelsResponseSchema,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { toBinary } from '@bufbuild/protobuf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityService } from '@store/contract';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import {
  ADMIN_TOKEN,
  codeOf,
  startBackupServer,
  type BackupServer,
} from '../backup/backup-fixture.js';
import { WebhookReceiver } from './webhook-receiver.js';

describe.each(DIALECTS)('NotificationService on %s', (dialect) => {
  let s: BackupServer;
  let notify: ReturnType<typeof createClient<typeof NotificationService>>;
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    s = await startBackupServer(dialect, { STORE_NOTIFY_ALLOW_PRIVATE_TARGETS: 'true' });
    notify = createClient(
      NotificationService,
      createGrpcTransport({
        baseUrl: s.t.server.grpcUrl,
        interceptors: [bearerInterceptor(ADMIN_TOKEN)],
      }),
    );
    await receiver.listen();
  });
  afterAll(async () => {
    await receiver.close();
    await s?.t.dispose();
  });

  it('creates a webhook channel, shows its secret once, and a test send arrives signed', async () => {
    const made = await notify.createChannel({
      name: 'ops hook',
      events: [NotificationEvent.BACKUP_FAILED, NotificationEvent.BACKUP_CORRUPT],
      target: { case: 'webhook', value: { url: receiver.url } },
    });
    expect(made.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(made.channel?.kind).toBe(ChannelKind.WEBHOOK);
    expect(made.channel?.secretHint).toBe(`${made.signingSecret.slice(0, 10)}…`);
    receiver.secret = made.signingSecret;
    const id = made.channel!.channelId;

    const listed = await notify.listChannels({});
    expect(listed.channels.map((c) => c.channelId)).toEqual([id]);
    // The secret never leaves in a listing: not in any field, not in the bytes on the wire.
    const wire = Buffer.from(toBinary(ListChannelsResponseSchema, listed)).toString('latin1');
    expect(wire).not.toContain(made.signingSecret.slice(6));

    const delivery = await notify.sendTestNotification({ channelId: id });
    expect(delivery.state).toBe(DeliveryState.DELIVERED);
    expect(delivery.lastResponseCode).toBe(200);
    expect(delivery.event).toBe(NotificationEvent.TEST);
    const got = receiver.received.at(-1)!;
    expect(got.verified).toBe(true);
    expect(got.webhookId).toBe(delivery.eventId);
    expect(got.body.type).toBe('store.test');

    const log = await notify.listDeliveries({ channelId: id });
    expect(log.deliveries.map((d) => d.deliveryId)).toEqual([delivery.deliveryId]);

    // After a rotation the old secret no longer verifies: the receiver is told the new one.
    const rotated = await notify.rotateChannelSecret({ channelId: id });
    expect(rotated.signingSecret).not.toBe(made.signingSecret);
    await notify.sendTestNotification({ channelId: id });
    expect(receiver.received.at(-1)!.verified).toBe(false);
    receiver.secret = rotated.signingSecret;
    await notify.sendTestNotification({ channelId: id });
    expect(receiver.received.at(-1)!.verified).toBe(true);

    // Every change is in the audit trail, saying what it did, never with a secret.
    const identity = createClient(
      IdentityService,
      createGrpcTransport({
        baseUrl: s.t.server.grpcUrl,
        interceptors: [bearerInterceptor(ADMIN_TOKEN)],
      }),
    );
    const ours = async () =>
      (await identity.listAuditRecords({ pageSize: 1000 })).records.filter(
        (r) => r.service === 'store.notifications.v1.NotificationService',
      );
    const deadline = Date.now() + 10_000;
    while ((await ours()).length < 5 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const records = await ours();
    expect(records.map((r) => r.method).sort()).toEqual([
      'CreateChannel',
      'RotateChannelSecret',
      'SendTestNotification',
      'SendTestNotification',
      'SendTestNotification',
    ]);
    expect(records.find((r) => r.method === 'CreateChannel')?.detail).toBe(
      `created webhook channel "ops hook" → ${receiver.url}; events BACKUP_FAILED, BACKUP_CORRUPT`,
    );
    for (const r of records) {
      expect(r.detail).not.toContain(made.signingSecret.slice(6, 20));
      expect(r.detail).not.toContain(rotated.signingSecret.slice(6, 20));
    }
  });

  it('refuses bad channels with InvalidArgument, email without SMTP with FailedPrecondition, a stale etag with FailedPrecondition', async () => {
    const webhook = (url: string) => ({ case: 'webhook' as const, value: { url } });
    const events = [NotificationEvent.BACKUP_FAILED];
    expect(
      await codeOf(notify.createChannel({ name: 'x', events, target: webhook('ftp://a/b') })),
    ).toBe(Code.InvalidArgument);
    expect(
      await codeOf(notify.createChannel({ name: '', events, target: webhook(receiver.url) })),
    ).toBe(Code.InvalidArgument);
    expect(
      await codeOf(notify.createChannel({ name: 'x', events: [], target: webhook(receiver.url) })),
    ).toBe(Code.InvalidArgument);
    expect(
      await codeOf(
        notify.createChannel({
          name: 'x',
          events: [NotificationEvent.TEST],
          target: webhook(receiver.url),
        }),
      ),
    ).toBe(Code.InvalidArgument);
    expect(await codeOf(notify.createChannel({ name: 'x', events }))).toBe(Code.InvalidArgument);
    expect(
      await codeOf(
        notify.createChannel({
          name: 'mail',
          events,
          target: { case: 'email', value: { recipients: ['ops@example.com'] } },
        }),
      ),
    ).toBe(Code.FailedPrecondition);
    expect(await codeOf(notify.getChannel({ channelId: 'ch_nope' }))).toBe(Code.NotFound);

    const { channel } = await notify.createChannel({
      name: 'etag',
      events,
      target: webhook(receiver.url),
    });
    const updated = await notify.updateChannel({
      channelId: channel!.channelId,
      etag: channel!.etag,
      name: 'etag 2',
      events,
      target: webhook(receiver.url),
    });
    expect(updated.name).toBe('etag 2');
    expect(
      await codeOf(
        notify.updateChannel({
          channelId: channel!.channelId,
          etag: channel!.etag,
          name: 'stale',
          events,
          target: webhook(receiver.url),
        }),
      ),
    ).toBe(Code.FailedPrecondition);
    expect(
      await codeOf(notify.deleteChannel({ channelId: channel!.channelId, etag: channel!.etag })),
    ).toBe(Code.FailedPrecondition);
    const gone = await notify.deleteChannel({ channelId: channel!.channelId, etag: updated.etag });
    expect(gone.deletedDeliveries).toBe(0n);
    expect(updated.state).toBe(ChannelState.ACTIVE);
  });

  it('lists the alerts that would fire now: none on a quiet tenant', async () => {
    const answer = await notify.listActiveAlerts({});
    expect(answer.alerts).toEqual([]);
    expect(answer.evaluatedAt).toBeDefined();
  });
});
