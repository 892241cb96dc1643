import {
  ChannelKind,
  ChannelState,
  DeliveryState,
  NotificationEvent,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import type { BadgeTone } from '../../../components/ui/badge';
import type { Worded } from '../../../lib/words';

interface EventChoice {
  event: NotificationEvent;
  /** The checkbox's label: what happened, as a reader would say it. */
  label: string;
  /** One line under it: when exactly it is sent. */
  hint: string;
}

/** The events a channel can choose, in the order the form lists them (failures first). */
export const EVENT_CHOICES: readonly EventChoice[] = [
  {
    event: NotificationEvent.BACKUP_FAILED,
    label: 'A backup failed',
    hint: 'Sent when a backup, scheduled or started by hand, ends in failure.',
  },
  {
    event: NotificationEvent.RESTORE_FAILED,
    label: 'A restore failed',
    hint: 'Sent when a restore ends in failure.',
  },
  {
    event: NotificationEvent.VERIFY_FAILED,
    label: 'A health check failed',
    hint: 'Sent when verifying a backup could not finish.',
  },
  {
    event: NotificationEvent.RESTORE_DRILL_FAILED,
    label: 'A restore drill failed',
    hint: 'Sent when a drill finds a backup that does not restore into what it captured, or cannot finish.',
  },
  {
    event: NotificationEvent.BACKUP_CORRUPT,
    label: 'A backup was found corrupt',
    hint: 'Sent when a health check finds a backup corrupt or its files missing.',
  },
  {
    event: NotificationEvent.BACKUP_OVERDUE,
    label: 'A scheduled scope has no recent backup',
    hint: 'Sent when no backup succeeded within twice the schedule’s cadence.',
  },
  {
    event: NotificationEvent.OPERATION_STUCK,
    label: 'An operation is stuck',
    hint: 'Sent when a running operation stops making progress.',
  },
  {
    event: NotificationEvent.DEAD_LETTERS_OVER_THRESHOLD,
    label: 'Dead letters are piling up',
    hint: 'Sent when one tree’s pending dead letters pass the threshold below.',
  },
  {
    event: NotificationEvent.RETENTION_DELETED,
    label: 'Retention deleted backups',
    hint: 'Sent when retention rules delete backups.',
  },
  {
    event: NotificationEvent.BACKUP_SUCCEEDED,
    label: 'A backup succeeded',
    hint: 'Sent after every successful backup: many messages on a busy tenant.',
  },
];

const EVENT_WORDS = new Map<NotificationEvent, string>([
  ...EVENT_CHOICES.map((choice) => [choice.event, choice.label] as const),
  [NotificationEvent.TEST, 'Test message'],
  [NotificationEvent.UNSPECIFIED, 'Unknown event'],
]);

/** An event in words ("A backup failed"), its enum name as the raw value. */
export function eventWords(event: NotificationEvent): Worded {
  return {
    words: EVENT_WORDS.get(event) ?? 'Unknown event',
    raw: NotificationEvent[event] ?? String(event),
  };
}

export function channelKindWords(kind: ChannelKind): Worded {
  const words =
    kind === ChannelKind.WEBHOOK ? 'Webhook' : kind === ChannelKind.EMAIL ? 'Email' : 'Unknown';
  return { words, raw: ChannelKind[kind] ?? String(kind) };
}

export function channelStateWords(state: ChannelState): Worded & { tone: BadgeTone } {
  const raw = ChannelState[state] ?? String(state);
  if (state === ChannelState.ACTIVE) return { words: 'Active', raw, tone: 'success' };
  if (state === ChannelState.PAUSED) return { words: 'Paused', raw, tone: 'danger' };
  return { words: 'Unknown', raw, tone: 'neutral' };
}

const DELIVERY_WORDS: Record<DeliveryState, { words: string; tone: BadgeTone }> = {
  [DeliveryState.UNSPECIFIED]: { words: 'Unknown', tone: 'neutral' },
  [DeliveryState.PENDING]: { words: 'Waiting to send', tone: 'info' },
  [DeliveryState.RETRYING]: { words: 'Retrying', tone: 'warning' },
  [DeliveryState.DELIVERED]: { words: 'Delivered', tone: 'success' },
  [DeliveryState.FAILED]: { words: 'Failed', tone: 'danger' },
  [DeliveryState.SKIPPED]: { words: 'Not sent (paused)', tone: 'neutral' },
};

export function deliveryStateWords(state: DeliveryState): Worded & { tone: BadgeTone } {
  const known = DELIVERY_WORDS[state] ?? DELIVERY_WORDS[DeliveryState.UNSPECIFIED];
  return { ...known, raw: DeliveryState[state] ?? String(state) };
}

/** Whether a delivery may still change: the log polls fast while one is shown. */
export function isDeliveryOpen(state: DeliveryState): boolean {
  return state === DeliveryState.PENDING || state === DeliveryState.RETRYING;
}
