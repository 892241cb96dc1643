import { Code, ConnectError } from '@connectrpc/connect';
import type {
  ChannelWithSecret,
  NotificationChannel,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { useState } from 'react';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { useRoles } from '../../../lib/identity/use-roles';
import { useActiveTenant, useToast } from '../../../lib/services';
import { useListChannelsQuery } from '../api/use-list-channels-query';
import { ChannelCard, type ChannelAction } from './channel-card';
import { DeleteChannelConfirm, RotateSecretConfirm } from './channel-confirms';
import { ChannelFormDialog } from './channel-form-dialog';
import { SecretDialog, type ShownSecret } from './secret-dialog';

/** The server's answer to a role it does not show channels to. */
function isRefusal(error: unknown): boolean {
  return error instanceof ConnectError && error.code === Code.PermissionDenied;
}

type Open =
  | { kind: 'create' }
  | { kind: ChannelAction; channel: NotificationChannel }
  | { kind: 'secret'; shown: ShownSecret };

/**
 * /notifications — who is told, and how, when something needs attention in the tenant: webhook
 * and email channels, the events each is told about, their delivery logs and a test send.
 * Admins change channels; other roles read what the server lets them.
 */
export function NotificationsPage() {
  const tenant = useActiveTenant();
  const toast = useToast();
  const roles = useRoles();
  const canChange = roles.atLeast('admin');
  const channels = useListChannelsQuery();
  const [open, setOpen] = useState<Open | null>(null);
  const close = () => setOpen(null);

  const showSecret = (answer: ChannelWithSecret, reason: ShownSecret['reason']) => {
    const name = answer.channel?.name ?? 'the channel';
    if (answer.signingSecret) {
      setOpen({
        kind: 'secret',
        shown: { channelName: name, secret: answer.signingSecret, reason },
      });
    } else {
      close();
      toast({ tone: 'success', title: `Channel ${name} created` });
    }
  };

  return (
    <>
      <PageHeader
        title="Notifications"
        description={
          <>
            Who is told when something needs attention in tenant <strong>{tenant}</strong>, by
            signed webhook or by email, and what each message did.
          </>
        }
        actions={
          <GuardedButton
            variant="primary"
            allowed={canChange}
            reason={roles.needs('admin')}
            disabled={roles.isLoading}
            onClick={() => setOpen({ kind: 'create' })}
          >
            New channel
          </GuardedButton>
        }
      />
      {channels.isPending ? (
        <Spinner label="Loading the channels…" />
      ) : channels.isError && isRefusal(channels.error) ? (
        <EmptyState title="Only some roles see the channels">
          The server does not show the notification channels of tenant <strong>{tenant}</strong> to
          your role. {roles.needs('admin')}
        </EmptyState>
      ) : channels.isError ? (
        <ErrorBanner
          title="Could not load the notification channels"
          error={channels.error}
          onRetry={() => void channels.refetch()}
        />
      ) : channels.data.length === 0 ? (
        <EmptyState title="No channels yet: nobody is told when a backup fails">
          {canChange
            ? 'Add a webhook or an email channel, choose what it is told about, and send it a test.'
            : 'An admin of this tenant can add a webhook or an email channel.'}
        </EmptyState>
      ) : (
        <div className="stack">
          {channels.data.map((channel) => (
            <ChannelCard
              key={channel.channelId}
              channel={channel}
              canChange={canChange}
              onAction={(kind, target) => setOpen({ kind, channel: target })}
            />
          ))}
        </div>
      )}
      {(open?.kind === 'create' || open?.kind === 'edit') && (
        <ChannelFormDialog
          channel={open.kind === 'edit' ? open.channel : undefined}
          onClose={close}
          onCreated={(created) => showSecret(created, 'created')}
          onSaved={(saved) => {
            close();
            toast({ tone: 'success', title: `Channel ${saved.name} saved` });
          }}
        />
      )}
      {open?.kind === 'rotate' && (
        <RotateSecretConfirm
          channel={open.channel}
          onClose={close}
          onRotated={(rotated) => showSecret(rotated, 'rotated')}
        />
      )}
      {open?.kind === 'delete' && <DeleteChannelConfirm channel={open.channel} onClose={close} />}
      {open?.kind === 'secret' && <SecretDialog shown={open.shown} onClose={close} />}
    </>
  );
}
