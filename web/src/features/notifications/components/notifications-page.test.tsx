import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, type ConnectRouter } from '@connectrpc/connect';
import { IdentityService } from '@store/contract';
import {
  ChannelKind,
  ChannelState,
  DeliveryState,
  NotificationChannelSchema,
  NotificationDeliverySchema,
  NotificationEvent,
  NotificationService,
  type CreateChannelRequest,
  type NotificationChannel,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

/**
 * The notification service as the real one answers for one tenant: channels with etags that
 * change on every change, the secret only in Create/Rotate, a stale etag FailedPrecondition.
 */
function notificationServer(
  roles: string[],
  initial: NotificationChannel[] = [],
  options: { refuseList?: boolean } = {},
) {
  let channels = [...initial];
  let version = 0;
  const created: CreateChannelRequest[] = [];
  const deletes: { channelId: string; etag: string }[] = [];
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, {
      whoAmI: () => whoAmI({ tenants: [{ tenantId: 'acme', roles }] }),
      resolveSubjects: () => ({}),
    });
    router.service(NotificationService, {
      listChannels: () => {
        if (options.refuseList) {
          throw new ConnectError('needs the admin role', Code.PermissionDenied);
        }
        return { channels };
      },
      createChannel: (req) => {
        created.push(req);
        const channel = create(NotificationChannelSchema, {
          channelId: `ch-${channels.length + 1}`,
          name: req.name,
          kind: req.target.case === 'email' ? ChannelKind.EMAIL : ChannelKind.WEBHOOK,
          events: req.events,
          target: req.target,
          state: ChannelState.ACTIVE,
          secretHint: 'whsec_MfKQ',
          etag: `e${++version}`,
        });
        channels = [...channels, channel];
        return { channel, signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
      },
      updateChannel: (req) => {
        const channel = channels.find((c) => c.channelId === req.channelId);
        if (!channel || channel.etag !== req.etag) {
          throw new ConnectError(
            `channel ${req.channelId} changed since it was read`,
            Code.FailedPrecondition,
          );
        }
        const updated = create(NotificationChannelSchema, {
          ...channel,
          name: req.name,
          events: req.events,
          target: req.target,
          deadLetterThreshold: req.deadLetterThreshold,
          etag: `e${++version}`,
        });
        channels = channels.map((c) => (c === channel ? updated : c));
        return updated;
      },
      rotateChannelSecret: (req) => {
        const channel = channels.find((c) => c.channelId === req.channelId);
        return { channel, signingSecret: 'whsec_Rotated0000000000000000000000' };
      },
      deleteChannel: (req) => {
        deletes.push(req);
        const channel = channels.find((c) => c.channelId === req.channelId);
        if (!channel || channel.etag !== req.etag) {
          throw new ConnectError(
            `channel ${req.channelId} changed since it was read (etag ${req.etag})`,
            Code.FailedPrecondition,
          );
        }
        channels = channels.filter((c) => c !== channel);
        return { deletedDeliveries: channel.deliveryCount };
      },
      sendTestNotification: (req) =>
        create(NotificationDeliverySchema, {
          deliveryId: 'd-1',
          channelId: req.channelId,
          event: NotificationEvent.TEST,
          state: DeliveryState.DELIVERED,
          attempts: 1,
          lastResponseCode: 200,
        }),
      listDeliveries: () => ({
        deliveries: [
          create(NotificationDeliverySchema, {
            deliveryId: 'd-1',
            event: NotificationEvent.BACKUP_FAILED,
            state: DeliveryState.RETRYING,
            attempts: 3,
            lastResponseCode: 503,
            lastError: 'the receiver answered 503 Service Unavailable',
            summary: 'Backup of ledger failed: disk full',
            scope: 'ledger',
            createdAt: timestampFromMs(Date.now() - 60_000),
          }),
        ],
        nextPageToken: 'next',
      }),
    });
  };
  return {
    created,
    deletes,
    /** Someone else changes a channel: its etag moves on. */
    touch: (channelId: string) => {
      channels = channels.map((c) =>
        c.channelId === channelId ? { ...c, etag: `e${++version}` } : c,
      );
    },
    app: createTestApp(routes, { session: testSession }),
  };
}

const paused = create(NotificationChannelSchema, {
  channelId: 'ch-9',
  name: 'Pager',
  kind: ChannelKind.WEBHOOK,
  target: { case: 'webhook', value: { url: 'https://hooks.example.com/pager' } },
  events: [NotificationEvent.BACKUP_FAILED],
  state: ChannelState.PAUSED,
  pausedReason: 'paused after 10 failed deliveries in a row; the last: HTTP 500',
  consecutiveFailures: 10,
  deliveryCount: 42n,
  etag: 'e0',
});

describe('notifications page', () => {
  it('creates a webhook channel and shows its secret once, with the warning', async () => {
    const server = notificationServer(['admin']);
    renderApp(server.app, '/notifications');
    expect(await screen.findByText(/No channels yet/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'New channel' }));
    const dialog = await screen.findByRole('dialog', { name: 'New notification channel' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create channel' }));
    // Checked before sending: nothing went to the server.
    expect(within(dialog).getByText('Give the channel a name')).toBeTruthy();
    expect(server.created).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'On call' } });
    fireEvent.change(within(dialog).getByLabelText('Webhook URL'), {
      target: { value: 'https://hooks.example.com/x' },
    });
    fireEvent.click(within(dialog).getByLabelText('Dead letters are piling up'));
    fireEvent.change(within(dialog).getByLabelText('Dead-letter threshold'), {
      target: { value: '5' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create channel' }));

    const secret = await screen.findByRole('dialog', { name: 'Signing secret of On call' });
    expect(within(secret).getByTestId('signing-secret').textContent).toBe(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    );
    expect(secret.textContent).toContain('you will not see it again');
    expect(server.created[0]).toMatchObject({
      name: 'On call',
      deadLetterThreshold: 5,
      target: { case: 'webhook', value: { url: 'https://hooks.example.com/x' } },
    });
    fireEvent.click(within(secret).getByRole('button', { name: 'I have stored it' }));
    await waitFor(() => expect(screen.queryByTestId('signing-secret')).toBeNull());
    const card = await screen.findByRole('region', { name: 'On call' });
    // The list shows only the secret's first characters from now on.
    expect(card.textContent).toContain('whsec_MfKQ…');
    expect(card.textContent).not.toContain('9r8GKYqr');
  });

  it('shows why a channel is paused with Resume, the test outcome and the log', async () => {
    const server = notificationServer(['admin'], [paused]);
    renderApp(server.app, '/notifications');
    const card = await screen.findByRole('region', { name: 'Pager' });
    expect(card.textContent).toContain(
      'Not sending: paused after 10 failed deliveries in a row; the last: HTTP 500.',
    );
    expect(within(card).getByRole('button', { name: 'Resume' })).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'Send test' }));
    expect(
      await within(card).findByText('Test message delivered (the receiver answered HTTP 200).'),
    ).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'Delivery log (42)' }));
    const row = await within(card).findByRole('row', { name: /disk full/ });
    expect(row.textContent).toContain('Retrying');
    expect(row.textContent).toContain('HTTP 503');
    expect(within(row).getByRole('link', { name: 'tree ledger' }).getAttribute('href')).toBe(
      '/trees/ledger',
    );
    expect(within(card).getByRole('button', { name: 'Load more' })).toBeTruthy();
  });

  it('says how many deliveries a delete loses, and a stale etag in words', async () => {
    const server = notificationServer(['admin'], [paused]);
    renderApp(server.app, '/notifications');
    const card = await screen.findByRole('region', { name: 'Pager' });
    fireEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete channel Pager?' });
    expect(confirm.textContent).toContain('Its delivery log loses 42 deliveries');
    expect(confirm.textContent).toContain('https://hooks.example.com/pager');

    server.touch('ch-9');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete channel' }));
    expect(
      await within(confirm).findByText(/Someone changed this channel after you opened it/),
    ).toBeTruthy();
    expect(server.deletes).toMatchObject([{ channelId: 'ch-9', etag: 'e0' }]);
  });

  it('lets a viewer read the channels without offering changes', async () => {
    const server = notificationServer(['viewer'], [paused]);
    renderApp(server.app, '/notifications');
    const card = await screen.findByRole('region', { name: 'Pager' });
    expect(within(card).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Send test' })).toBeNull();
    expect(within(card).getByRole('button', { name: 'Resume' }).hasAttribute('disabled')).toBe(
      true,
    );
    expect(screen.getByRole('button', { name: 'New channel' }).hasAttribute('disabled')).toBe(true);
    expect(
      screen.getAllByText('Needs the admin role (you are a viewer in tenant acme).').length,
    ).toBe(2);
  });

  it('says in words when the server shows the channels to admins only', async () => {
    const server = notificationServer(['viewer'], [paused], { refuseList: true });
    renderApp(server.app, '/notifications');
    expect(await screen.findByText('Only some roles see the channels')).toBeTruthy();
    expect(screen.getByText(/does not show the notification channels of tenant/)).toBeTruthy();
  });

  it('edits a channel with the etag it read; a change meanwhile is refused in words', async () => {
    const server = notificationServer(['admin'], [paused]);
    renderApp(server.app, '/notifications');
    const card = await screen.findByRole('region', { name: 'Pager' });
    fireEvent.click(within(card).getByRole('button', { name: 'Edit' }));
    let form = await screen.findByRole('dialog', { name: 'Edit channel Pager' });
    // A saved channel keeps its kind.
    expect(within(form).getByLabelText('Email').hasAttribute('disabled')).toBe(true);
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Pager 2' } });
    server.touch('ch-9');
    fireEvent.click(within(form).getByRole('button', { name: 'Save channel' }));
    expect(
      await within(form).findByText(/Someone changed this channel after you opened it/),
    ).toBeTruthy();

    // Opened again, it carries the new etag and saves.
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(
      within(await screen.findByRole('region', { name: 'Pager' })).getByRole('button', {
        name: 'Edit',
      }),
    );
    form = await screen.findByRole('dialog', { name: 'Edit channel Pager' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Pager 2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save channel' }));
    expect(await screen.findByRole('region', { name: 'Pager 2' })).toBeTruthy();
  });

  it('rotates a secret after saying the receiver needs the new one, and shows it once', async () => {
    const server = notificationServer(['admin'], [paused]);
    renderApp(server.app, '/notifications');
    const card = await screen.findByRole('region', { name: 'Pager' });
    fireEvent.click(within(card).getByRole('button', { name: 'Rotate secret' }));
    const confirm = await screen.findByRole('dialog', {
      name: 'Rotate the signing secret of Pager?',
    });
    expect(confirm.textContent).toContain('your receiver refuses them until it has the new secret');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Rotate secret' }));
    const secret = await screen.findByRole('dialog', { name: 'New signing secret of Pager' });
    expect(within(secret).getByTestId('signing-secret').textContent).toBe(
      'whsec_Rotated0000000000000000000000',
    );
    expect(secret.textContent).toContain('you will not see it again');
  });
});
