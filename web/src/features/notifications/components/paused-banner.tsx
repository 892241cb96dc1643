import type { NotificationChannel } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { Time } from '../../../components/ui/time';
import { useRoles } from '../../../lib/identity/use-roles';
import { useResumeChannelMutation } from '../api/use-channel-mutations';
import { pausedPhrase } from '../utils/channel-summary';

/**
 * A paused channel says why, since when and what happens meanwhile, beside the one action that
 * ends it. The server pauses a channel after too many failed deliveries in a row.
 */
export function PausedBanner({ channel }: { channel: NotificationChannel }) {
  const roles = useRoles();
  const resume = useResumeChannelMutation();
  return (
    <div className="warning-banner channel-paused" role="status">
      <div>
        <p>
          <strong>
            Not sending
            {channel.pausedAt ? (
              <>
                {' '}
                since <Time value={channel.pausedAt} />
              </>
            ) : null}
            :
          </strong>{' '}
          {pausedPhrase(channel)}.
        </p>
        <p>
          Until it is resumed, events are logged as not sent. Fix the receiver first, then resume.
        </p>
      </div>
      <GuardedButton
        allowed={roles.atLeast('admin')}
        reason={roles.needs('admin')}
        busy={resume.isPending}
        onClick={() => resume.mutate(channel.channelId)}
      >
        Resume
      </GuardedButton>
    </div>
  );
}
