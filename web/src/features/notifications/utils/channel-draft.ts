import {
  ChannelKind,
  NotificationEvent,
  type NotificationChannel,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';

export type DraftKind = 'webhook' | 'email';

/** The channel form as typed: strings, so a half-typed value stays on screen. */
export interface ChannelDraft {
  name: string;
  kind: DraftKind;
  url: string;
  /** Addresses separated by commas, spaces or new lines. */
  recipients: string;
  events: readonly NotificationEvent[];
  threshold: string;
}

/** The fields of Create and Update that the form sets. */
export interface ChannelFields {
  name: string;
  events: NotificationEvent[];
  target:
    | { case: 'webhook'; value: { url: string } }
    | { case: 'email'; value: { recipients: string[] } };
  deadLetterThreshold: number;
}

export type DraftErrors = Partial<
  Record<'name' | 'url' | 'recipients' | 'events' | 'threshold', string>
>;

export type ParsedDraft = { ok: true; fields: ChannelFields } | { ok: false; errors: DraftErrors };

/** The pending letters of one tree a new channel is told about, unless changed. */
export const DEFAULT_THRESHOLD = '100';

export const EMPTY_DRAFT: ChannelDraft = {
  name: '',
  kind: 'webhook',
  url: '',
  recipients: '',
  events: [NotificationEvent.BACKUP_FAILED, NotificationEvent.BACKUP_CORRUPT],
  threshold: DEFAULT_THRESHOLD,
};

/** A stored channel loaded into the form, to edit it. */
export function draftFromChannel(channel: NotificationChannel): ChannelDraft {
  return {
    name: channel.name,
    kind: channel.kind === ChannelKind.EMAIL ? 'email' : 'webhook',
    url: channel.target.case === 'webhook' ? channel.target.value.url : '',
    recipients: channel.target.case === 'email' ? channel.target.value.recipients.join(', ') : '',
    events: channel.events,
    threshold:
      channel.deadLetterThreshold > 0 ? String(channel.deadLetterThreshold) : DEFAULT_THRESHOLD,
  };
}

/** "a@x.org, b@y.org\nc@z.org" → the addresses, in order, without blanks. */
export function splitRecipients(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

// Only the shape: whether the address exists, the mail server finds out.
const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkUrl(text: string): string | null {
  if (text.trim() === '') return 'Enter the URL the webhook is sent to';
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return 'Enter a whole URL, starting with https://';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'The URL must start with https:// (or http://)';
  }
  return null;
}

/**
 * Checks the form as the server would before anything is sent: a name, a target, at least one
 * event, and a whole-number threshold when dead letters are chosen. Whether a URL's host is
 * allowed (not a private address) only the server can tell, and says so on save.
 */
export function parseChannelDraft(draft: ChannelDraft): ParsedDraft {
  const errors: DraftErrors = {};
  const name = draft.name.trim();
  if (name === '') errors.name = 'Give the channel a name';
  let target: ChannelFields['target'] | undefined;
  if (draft.kind === 'webhook') {
    const urlError = checkUrl(draft.url);
    if (urlError) errors.url = urlError;
    else target = { case: 'webhook', value: { url: draft.url.trim() } };
  } else {
    const recipients = splitRecipients(draft.recipients);
    const bad = recipients.filter((address) => !ADDRESS.test(address));
    if (recipients.length === 0) errors.recipients = 'Enter at least one email address';
    else if (bad.length > 0) errors.recipients = `Not an email address: ${bad.join(', ')}`;
    else target = { case: 'email', value: { recipients } };
  }
  if (draft.events.length === 0) errors.events = 'Choose at least one event to be told about';
  const wantsDeadLetters = draft.events.includes(NotificationEvent.DEAD_LETTERS_OVER_THRESHOLD);
  let deadLetterThreshold = 0;
  if (wantsDeadLetters) {
    const text = draft.threshold.trim();
    deadLetterThreshold = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(deadLetterThreshold) || deadLetterThreshold < 1) {
      errors.threshold = 'Enter a whole number of letters, 1 or more';
    }
  }
  if (Object.keys(errors).length > 0 || !target) return { ok: false, errors };
  return {
    ok: true,
    fields: { name, events: [...draft.events], target, deadLetterThreshold },
  };
}

/** The draft with `event` chosen or not, keeping the form's order of events. */
export function toggleEvent(
  draft: ChannelDraft,
  event: NotificationEvent,
  chosen: boolean,
): ChannelDraft {
  const others = draft.events.filter((e) => e !== event);
  return { ...draft, events: chosen ? [...others, event] : others };
}
