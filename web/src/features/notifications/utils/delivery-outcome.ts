import {
  ChannelKind,
  DeliveryState,
  type NotificationDelivery,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';

/** A receiver's answer code in words: "HTTP 200" for a webhook, "SMTP 250" for email. */
export function responseCodeText(kind: ChannelKind, code: number): string {
  if (code === 0) return 'No answer';
  return `${kind === ChannelKind.EMAIL ? 'SMTP' : 'HTTP'} ${code}`;
}

export interface TestOutcome {
  tone: 'success' | 'warning' | 'danger';
  text: string;
}

/** What a "Send test" did, in one sentence from the delivery SendTestNotification answers. */
export function testOutcome(kind: ChannelKind, delivery: NotificationDelivery): TestOutcome {
  const answer = delivery.lastResponseCode
    ? ` (the receiver answered ${responseCodeText(kind, delivery.lastResponseCode)})`
    : '';
  const said = delivery.lastError.trim().replace(/\.$/, '');
  // An error that only repeats the answer's code ("HTTP 500") would say it twice.
  const error = /^(HTTP|SMTP)?\s*\d{3}$/i.test(said) ? '' : said;
  switch (delivery.state) {
    case DeliveryState.DELIVERED:
      return { tone: 'success', text: `Test message delivered${answer}.` };
    case DeliveryState.SKIPPED:
      return { tone: 'warning', text: 'Test message not sent: the channel is paused.' };
    case DeliveryState.PENDING:
    case DeliveryState.RETRYING:
      return {
        tone: 'warning',
        text: `Test message not delivered yet${answer}${error ? `: ${error}` : ''}. It is tried again; the delivery log shows how it ends.`,
      };
    default:
      return {
        tone: 'danger',
        text: `Test message failed${answer}${error ? `: ${error}` : ''}.`,
      };
  }
}
