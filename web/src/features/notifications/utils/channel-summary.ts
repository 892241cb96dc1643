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
 * Why a channel is paused, as a phrase to follow "Paused since …:": the server's reason as it
 * wrote it ("paused after 10 failed deliveries in a row; the last: HTTP 500"), else the run of
 * failures it counted.
 */
export function pausedPhrase(
  channel: Pick<NotificationChannel, 'pausedReason' | 'consecutiveFailures'>,
): string {
  const reason = channel.pausedReason.trim().replace(/\.$/, '');
  if (reason) return reason.charAt(0).toLowerCase() + reason.slice(1);
  if (channel.consecutiveFailures > 0) {
    return `${counted(channel.consecutiveFailures, 'delivery', 'deliveries')} in a row failed`;
  }
  return 'too many deliveries in a row failed';
}

/** A secret's first characters as a clearly partial string: "whsec_MfKQ…". */
export function secretHintText(hint: string): string {
  return hint.endsWith('…') ? hint : `${hint}…`;
}
