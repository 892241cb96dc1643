import {
  ChannelKind,
  ChannelState,
  NotificationEvent,
  type NotificationChannel,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { useId, useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ErrorText } from '../../../components/ui/error-text';
import { Term } from '../../../components/ui/term';
import { Time } from '../../../components/ui/time';
import { useSubjectName } from '../../../lib/identity/use-subject-name';
import { counted } from '../../../lib/words';
import { useSendTestNotificationMutation } from '../api/use-channel-mutations';
import { secretHintText, targetText } from '../utils/channel-summary';
import { testOutcome } from '../utils/delivery-outcome';
import { channelKindWords, channelStateWords, eventWords } from '../utils/notification-words';
import { DeliveryLog } from './delivery-log';
import { PausedBanner } from './paused-banner';

export type ChannelAction = 'edit' | 'rotate' | 'delete';

/**
 * One channel: its kind, name, target, events and state (a paused one says why), its actions
 * for admins, the outcome of its last test message, and its delivery log on request.
 */
export function ChannelCard({
  channel,
  canChange,
  onAction,
}: {
  channel: NotificationChannel;
  /** Admins change channels and send tests; everyone else reads. */
  canChange: boolean;
  onAction: (action: ChannelAction, channel: NotificationChannel) => void;
}) {
  const headingId = useId();
  const logId = useId();
  const [showLog, setShowLog] = useState(false);
  const test = useSendTestNotificationMutation();
  const state = channelStateWords(channel.state);
  const updatedBy = useSubjectName(channel.updatedBy);
  const outcome = test.data ? testOutcome(channel.kind, test.data) : null;

  return (
    <section
      className="panel channel-card"
      aria-labelledby={headingId}
      data-testid="channel-card"
      data-channel={channel.channelId}
    >
      <div className="channel-card__head">
        <h2 id={headingId} className="panel__title channel-card__name">
          {channel.name}
        </h2>
        <span className="channel-card__badges">
          <Badge tone="info">
            <Term term={channelKindWords(channel.kind)} />
          </Badge>
          <Badge tone={state.tone}>
            <Term term={state} />
          </Badge>
        </span>
      </div>
      {channel.state === ChannelState.PAUSED && <PausedBanner channel={channel} />}
      <dl className="channel-card__facts">
        <dt>{channel.kind === ChannelKind.EMAIL ? 'Sends to' : 'Posts to'}</dt>
        <dd className="channel-card__target">{targetText(channel)}</dd>
        <dt>Told when</dt>
        <dd>
          <ul className="plain-list channel-card__events">
            {channel.events.map((event) => (
              <li key={event}>
                <Term term={eventWords(event)} />
              </li>
            ))}
          </ul>
        </dd>
        {channel.deadLetterThreshold > 0 &&
          channel.events.includes(NotificationEvent.DEAD_LETTERS_OVER_THRESHOLD) && (
            <>
              <dt>Dead letters over</dt>
              <dd>{counted(channel.deadLetterThreshold, 'letter')} pending in one tree</dd>
            </>
          )}
        {channel.kind === ChannelKind.WEBHOOK && channel.secretHint && (
          <>
            <dt>Signing secret</dt>
            <dd>
              starts <span className="mono">{secretHintText(channel.secretHint)}</span>
            </dd>
          </>
        )}
        <dt>Changed</dt>
        <dd>
          <Time value={channel.updatedAt ?? channel.createdAt} />
          {channel.updatedBy && <> by {updatedBy.name}</>}
        </dd>
      </dl>
      <div className="channel-card__actions">
        {canChange && (
          <>
            <Button
              variant="primary"
              busy={test.isPending}
              onClick={() => test.mutate(channel.channelId)}
            >
              Send test
            </Button>
            <Button onClick={() => onAction('edit', channel)}>Edit</Button>
            {channel.kind === ChannelKind.WEBHOOK && (
              <Button onClick={() => onAction('rotate', channel)}>Rotate secret</Button>
            )}
            <Button variant="danger-quiet" onClick={() => onAction('delete', channel)}>
              Delete
            </Button>
          </>
        )}
        <Button
          variant="ghost"
          aria-expanded={showLog}
          aria-controls={showLog ? logId : undefined}
          onClick={() => setShowLog(!showLog)}
        >
          {showLog ? 'Hide delivery log' : `Delivery log (${channel.deliveryCount})`}
        </Button>
      </div>
      <div role="status" className="channel-card__outcome">
        {outcome && <p className={`notice notice--${outcome.tone}`}>{outcome.text}</p>}
      </div>
      {test.error && (
        <div role="alert" className="error-banner">
          <ErrorText error={test.error} lead="The test message was not sent:" />
        </div>
      )}
      {showLog && (
        <div id={logId}>
          <h3>Delivery log</h3>
          <DeliveryLog
            channelId={channel.channelId}
            channelName={channel.name}
            kind={channel.kind}
          />
        </div>
      )}
    </section>
  );
}
