import type { NotificationChannel } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { counted } from '../../../lib/words';

/** Where a channel sends, in a phrase: "https://hooks.example.com/x" or "2 addresses (a@x, b@y)". */
export function targetText(channel: Pick<NotificationChannel, 'target'>): string {
  if (channel.target.case === 'webhook') return channel.target.value.url;
  if (channel.target.case === 'email') {
    const recipients = channel.target.value.recipients;
    if (recipients.length === 1) return recipients[0]!;
    return `${counted(recipients.length, 'address', 'addresses')} (${recipients.join(', ')})`;
  }
  return 'nowhere yet';
}

/**
 * Why a channel is paused, as one sentence: the server's reason, with how many deliveries in a
 * row failed when it says.
 */
export function pausedSentence(
  channel: Pick<NotificationChannel, 'pausedReason' | 'consecutiveFailures'>,
): string {
  const reason = channel.pausedReason.trim().replace(/\.$/, '');
  const failures =
    channel.consecutiveFailures > 0
      ? `${counted(channel.consecutiveFailures, 'delivery', 'deliveries')} in a row failed`
      : '';
  if (reason && failures) return `${failures}: ${reason}.`;
  if (reason) return `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;
  if (failures) return `${failures.charAt(0).toUpperCase()}${failures.slice(1)}.`;
  return 'The server paused it after repeated failed deliveries.';
}
