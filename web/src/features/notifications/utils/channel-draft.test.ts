import { create } from '@bufbuild/protobuf';
import {
  ChannelKind,
  NotificationChannelSchema,
  NotificationEvent,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_DRAFT,
  draftFromChannel,
  parseChannelDraft,
  splitRecipients,
  toggleEvent,
  type ChannelDraft,
} from './channel-draft';

const webhook: ChannelDraft = {
  ...EMPTY_DRAFT,
  name: ' On call ',
  url: 'https://hooks.example.com/x',
};

describe('parseChannelDraft', () => {
  it('turns a webhook draft into the request fields, the name trimmed', () => {
    expect(parseChannelDraft(webhook)).toEqual({
      ok: true,
      fields: {
        name: 'On call',
        events: [NotificationEvent.BACKUP_FAILED, NotificationEvent.BACKUP_CORRUPT],
        target: { case: 'webhook', value: { url: 'https://hooks.example.com/x' } },
        deadLetterThreshold: 0,
      },
    });
  });

  it('names each missing or malformed field in words', () => {
    const parsed = parseChannelDraft({ ...EMPTY_DRAFT, url: 'hooks.example.com', events: [] });
    expect(parsed).toEqual({
      ok: false,
      errors: {
        name: 'Give the channel a name',
        url: 'Enter a whole URL, starting with https://',
        events: 'Choose at least one event to be told about',
      },
    });
    expect(parseChannelDraft({ ...webhook, url: 'ftp://x.org/a' })).toMatchObject({
      errors: { url: 'The URL must start with https:// (or http://)' },
    });
  });

  it('reads email recipients separated by commas, spaces or lines and names the bad ones', () => {
    const email = { ...webhook, kind: 'email' as const, recipients: 'a@x.org,\n b@y.org ; ' };
    expect(parseChannelDraft(email)).toMatchObject({
      ok: true,
      fields: { target: { case: 'email', value: { recipients: ['a@x.org', 'b@y.org'] } } },
    });
    expect(parseChannelDraft({ ...email, recipients: 'a@x.org, nobody' })).toMatchObject({
      errors: { recipients: 'Not an email address: nobody' },
    });
    expect(parseChannelDraft({ ...email, recipients: ' ' })).toMatchObject({
      errors: { recipients: 'Enter at least one email address' },
    });
  });

  it('asks for a whole-number threshold only when dead letters are chosen', () => {
    const withLetters = toggleEvent(webhook, NotificationEvent.DEAD_LETTERS_OVER_THRESHOLD, true);
    expect(parseChannelDraft({ ...withLetters, threshold: '25' })).toMatchObject({
      ok: true,
      fields: { deadLetterThreshold: 25 },
    });
    for (const threshold of ['0', '2.5', 'ten', '']) {
      expect(parseChannelDraft({ ...withLetters, threshold })).toMatchObject({
        errors: { threshold: 'Enter a whole number of letters, 1 or more' },
      });
    }
    expect(parseChannelDraft({ ...webhook, threshold: 'ten' }).ok).toBe(true);
  });
});

describe('the draft of a stored channel', () => {
  it('loads its target, events and threshold into the form', () => {
    const channel = create(NotificationChannelSchema, {
      name: 'Mail',
      kind: ChannelKind.EMAIL,
      target: { case: 'email', value: { recipients: ['a@x.org', 'b@y.org'] } },
      events: [NotificationEvent.DEAD_LETTERS_OVER_THRESHOLD],
      deadLetterThreshold: 7,
    });
    expect(draftFromChannel(channel)).toEqual({
      name: 'Mail',
      kind: 'email',
      url: '',
      recipients: 'a@x.org, b@y.org',
      events: [NotificationEvent.DEAD_LETTERS_OVER_THRESHOLD],
      threshold: '7',
    });
  });
});

describe('splitRecipients and toggleEvent', () => {
  it('drops blanks and keeps the order typed', () => {
    expect(splitRecipients(' b@y.org,,a@x.org\n')).toEqual(['b@y.org', 'a@x.org']);
  });

  it('adds an event once and removes it', () => {
    const once = toggleEvent(webhook, NotificationEvent.BACKUP_FAILED, true);
    expect(once.events.filter((e) => e === NotificationEvent.BACKUP_FAILED)).toHaveLength(1);
    expect(toggleEvent(webhook, NotificationEvent.BACKUP_FAILED, false).events).toEqual([
      NotificationEvent.BACKUP_CORRUPT,
    ]);
  });
});
