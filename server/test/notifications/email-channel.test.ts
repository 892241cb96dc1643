import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  ChannelKind,
  DeliveryState,
  NotificationEvent,
  NotificationService,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { ADMIN_TOKEN, startBackupServer, type BackupServer } from '../backup/backup-fixture.js';
import { SmtpSink } from './smtp-sink.js';

describe.each(DIALECTS)('email channels through a real SMTP server on %s', (dialect) => {
  const smtp = new SmtpSink();
  let s: BackupServer;
  let notify: ReturnType<typeof createClient<typeof NotificationService>>;
  beforeAll(async () => {
    await smtp.start();
    s = await startBackupServer(dialect, {
      STORE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      STORE_SMTP_FROM: 'store@example.com',
    });
    notify = createClient(
      NotificationService,
      createGrpcTransport({
        baseUrl: s.t.server.grpcUrl,
        interceptors: [bearerInterceptor(ADMIN_TOKEN)],
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await s?.t.dispose();
    await smtp.stop();
  });

  it('a test email reaches the SMTP server with the event id; a refused recipient is logged with its reply code', async () => {
    const { channel, signingSecret } = await notify.createChannel({
      name: 'ops mail',
      events: [NotificationEvent.BACKUP_FAILED],
      target: { case: 'email', value: { recipients: ['ops@example.com', 'dba@example.com'] } },
    });
    expect(channel?.kind).toBe(ChannelKind.EMAIL);
    expect(signingSecret).toBe('');
    const delivery = await notify.sendTestNotification({ channelId: channel!.channelId });
    expect(delivery.state).toBe(DeliveryState.DELIVERED);
    expect(delivery.lastResponseCode).toBe(250);
    const mail = smtp.messages.at(-1)!;
    expect(mail.from).toBe('store@example.com');
    expect(mail.to).toEqual(['ops@example.com', 'dba@example.com']);
    expect(mail.data).toContain(`Event id: ${delivery.eventId}`);
    expect(mail.data).toMatch(/Subject: \[Store\] Test notification for channel ops mail/);

    const refused = await notify.createChannel({
      name: 'nobody',
      events: [NotificationEvent.BACKUP_FAILED],
      target: { case: 'email', value: { recipients: ['reject@example.com'] } },
    });
    const failed = await notify.sendTestNotification({ channelId: refused.channel!.channelId });
    expect(failed.state).toBe(DeliveryState.FAILED);
    expect(failed.lastResponseCode).toBe(550);
    expect(failed.lastError).toMatch(/mailbox unavailable/);
  });
});
