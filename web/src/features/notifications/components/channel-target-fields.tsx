import { useId } from 'react';
import { Field } from '../../../components/ui/field';
import type { ChannelDraft, DraftErrors, DraftKind } from '../utils/channel-draft';

const KINDS: readonly { kind: DraftKind; label: string }[] = [
  { kind: 'webhook', label: 'Webhook (a signed HTTPS POST)' },
  { kind: 'email', label: 'Email' },
];

/** The channel's name, its kind and where it sends. */
export function ChannelTargetFields({
  draft,
  errors,
  kindLocked,
  onChange,
}: {
  draft: ChannelDraft;
  errors: DraftErrors;
  /** A saved channel keeps its kind: a webhook's secret means nothing to an email channel. */
  kindLocked: boolean;
  onChange: (next: ChannelDraft) => void;
}) {
  const kindName = useId();
  return (
    <>
      <Field label="Name" hint="What the list and the messages call it." error={errors.name}>
        {(control) => (
          <input
            {...control}
            className="input"
            value={draft.name}
            maxLength={200}
            onChange={(event) => onChange({ ...draft, name: event.target.value })}
          />
        )}
      </Field>
      <fieldset className="channel-kind">
        <legend className="field__label">Kind</legend>
        {KINDS.map(({ kind, label }) => (
          <label key={kind}>
            <input
              type="radio"
              name={kindName}
              value={kind}
              checked={draft.kind === kind}
              disabled={kindLocked}
              onChange={() => onChange({ ...draft, kind })}
            />{' '}
            {label}
          </label>
        ))}
        {kindLocked && (
          <p className="field__hint">A channel keeps its kind; create another for the other.</p>
        )}
      </fieldset>
      {draft.kind === 'webhook' ? (
        <Field
          label="Webhook URL"
          hint="Each message is a POST signed per Standard Webhooks; your receiver checks it with the channel’s secret."
          error={errors.url}
        >
          {(control) => (
            <input
              {...control}
              className="input"
              type="url"
              inputMode="url"
              placeholder="https://hooks.example.com/store"
              value={draft.url}
              onChange={(event) => onChange({ ...draft, url: event.target.value })}
            />
          )}
        </Field>
      ) : (
        <Field
          label="Recipients"
          hint="Email addresses, separated by commas or new lines. Sent through the server’s mail settings."
          error={errors.recipients}
        >
          {(control) => (
            <textarea
              {...control}
              className="input"
              rows={3}
              value={draft.recipients}
              onChange={(event) => onChange({ ...draft, recipients: event.target.value })}
            />
          )}
        </Field>
      )}
    </>
  );
}
