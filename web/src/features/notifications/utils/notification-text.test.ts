import { create } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import {
  ChannelKind,
  ChannelState,
  DeliveryState,
  NotificationDeliverySchema,
  NotificationEvent,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { describe, expect, it } from 'vitest';
import { explainChannelError } from './channel-errors';
import { pausedPhrase, secretHintText, targetText } from './channel-summary';
import { responseCodeText, testOutcome } from './delivery-outcome';
import {
  EVENT_CHOICES,
  channelStateWords,
  deliveryStateWords,
  eventWords,
} from './notification-words';

describe('notification words', () => {
  it('offers every event a channel can choose, in words, and never the test event', () => {
    const offered = EVENT_CHOICES.map((choice) => choice.event).sort((a, b) => a - b);
    const choosable = Object.values(NotificationEvent)
      .filter((value): value is NotificationEvent => typeof value === 'number')
      .filter((e) => e !== NotificationEvent.UNSPECIFIED && e !== NotificationEvent.TEST);
    expect(offered).toEqual(choosable);
    for (const choice of EVENT_CHOICES) expect(choice.label).not.toMatch(/_/);
    expect(eventWords(NotificationEvent.BACKUP_OVERDUE)).toEqual({
      words: 'A scheduled scope has no recent backup',
      raw: 'BACKUP_OVERDUE',
    });
    expect(eventWords(NotificationEvent.RESTORE_DRILL_FAILED)).toEqual({
      words: 'A restore drill failed',
      raw: 'RESTORE_DRILL_FAILED',
    });
  });

  it('says states in words with a colour that repeats them', () => {
    expect(channelStateWords(ChannelState.PAUSED)).toMatchObject({
      words: 'Paused',
      tone: 'danger',
    });
    expect(deliveryStateWords(DeliveryState.SKIPPED)).toEqual({
      words: 'Not sent (paused)',
      raw: 'SKIPPED',
      tone: 'neutral',
    });
  });
});

describe('channel summaries', () => {
  it('says where a channel sends', () => {
    expect(
      targetText({ target: { case: 'webhook', value: { url: 'https://h.example/x' } } } as never),
    ).toBe('https://h.example/x');
    expect(
      targetText({
        target: { case: 'email', value: { recipients: ['a@x.org', 'b@y.org'] } },
      } as never),
    ).toBe('2 addresses (a@x.org, b@y.org)');
  });

  it('marks a secret hint as partial once, whether or not the server did', () => {
    expect(secretHintText('whsec_MfKQ')).toBe('whsec_MfKQ…');
    expect(secretHintText('whsec_MfKQ…')).toBe('whsec_MfKQ…');
  });

  it('says why a channel is paused in the server’s words, else by its run of failures', () => {
    expect(
      pausedPhrase({
        pausedReason: 'Paused after 10 failed deliveries in a row; the last: HTTP 500.',
        consecutiveFailures: 10,
      }),
    ).toBe('paused after 10 failed deliveries in a row; the last: HTTP 500');
    expect(pausedPhrase({ pausedReason: '', consecutiveFailures: 3 })).toBe(
      '3 deliveries in a row failed',
    );
    expect(pausedPhrase({ pausedReason: '', consecutiveFailures: 0 })).toBe(
      'too many deliveries in a row failed',
    );
  });
});

describe('a test send in words', () => {
  it('names the receiver’s answer by protocol', () => {
    expect(responseCodeText(ChannelKind.WEBHOOK, 200)).toBe('HTTP 200');
    expect(responseCodeText(ChannelKind.EMAIL, 250)).toBe('SMTP 250');
    expect(responseCodeText(ChannelKind.WEBHOOK, 0)).toBe('No answer');
  });

  it('says delivered, failed with the error, or paused', () => {
    const delivery = (init: object) => create(NotificationDeliverySchema, init);
    expect(
      testOutcome(
        ChannelKind.WEBHOOK,
        delivery({ state: DeliveryState.DELIVERED, lastResponseCode: 200 }),
      ),
    ).toEqual({
      tone: 'success',
      text: 'Test message delivered (the receiver answered HTTP 200).',
    });
    expect(
      testOutcome(
        ChannelKind.WEBHOOK,
        delivery({
          state: DeliveryState.FAILED,
          lastResponseCode: 401,
          lastError: 'bad signature.',
        }),
      ),
    ).toEqual({
      tone: 'danger',
      text: 'Test message failed (the receiver answered HTTP 401): bad signature.',
    });
    expect(
      testOutcome(
        ChannelKind.WEBHOOK,
        delivery({ state: DeliveryState.FAILED, lastResponseCode: 500, lastError: 'HTTP 500' }),
      ).text,
    ).toBe('Test message failed (the receiver answered HTTP 500).');
    expect(testOutcome(ChannelKind.EMAIL, delivery({ state: DeliveryState.SKIPPED })).text).toBe(
      'Test message not sent: the channel is paused.',
    );
  });
});

describe('explainChannelError', () => {
  it('says a stale etag means someone changed the channel, when an etag was sent', () => {
    const stale = new ConnectError('etag mismatch', Code.FailedPrecondition);
    expect(explainChannelError(stale, true)).toMatchObject({
      what: 'Someone changed this channel after you opened it, so nothing was changed.',
      code: 'FailedPrecondition',
      raw: 'etag mismatch',
    });
    expect(explainChannelError(stale, false).what).not.toMatch(/Someone changed/);
  });

  it('keeps the server’s words for missing SMTP settings and for other codes', () => {
    const smtp = new ConnectError('SMTP is not configured on this server', Code.FailedPrecondition);
    expect(explainChannelError(smtp, true).what).not.toMatch(/Someone changed/);
    const bad = new ConnectError('url resolves to a private address', Code.InvalidArgument);
    expect(explainChannelError(bad, true).what).not.toMatch(/Someone changed/);
  });
});
