import { NotificationEvent } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { useId } from 'react';
import { Field } from '../../../components/ui/field';
import { toggleEvent, type ChannelDraft, type DraftErrors } from '../utils/channel-draft';
import { EVENT_CHOICES } from '../utils/notification-words';

/** A checkbox per event in plain words, and the dead-letter threshold when that one is chosen. */
export function EventChoices({
  draft,
  errors,
  onChange,
}: {
  draft: ChannelDraft;
  errors: DraftErrors;
  onChange: (next: ChannelDraft) => void;
}) {
  const errorId = useId();
  const deadLetters = draft.events.includes(NotificationEvent.DEAD_LETTERS_OVER_THRESHOLD);
  return (
    <fieldset
      className="channel-events"
      aria-describedby={errors.events ? errorId : undefined}
      aria-invalid={errors.events ? true : undefined}
    >
      <legend className="field__label">Tell this channel when</legend>
      <ul className="plain-list channel-events__list">
        {EVENT_CHOICES.map(({ event, label, hint }) => {
          const hintId = `${errorId}-${event}`;
          return (
            <li key={event}>
              <label className="checkbox-field">
                <input
                  type="checkbox"
                  checked={draft.events.includes(event)}
                  aria-describedby={hintId}
                  onChange={(e) => onChange(toggleEvent(draft, event, e.target.checked))}
                />
                {label}
              </label>
              <p id={hintId} className="field__hint channel-events__hint">
                {hint}
              </p>
              {event === NotificationEvent.DEAD_LETTERS_OVER_THRESHOLD && deadLetters && (
                <div className="channel-events__threshold">
                  <Field
                    label="Dead-letter threshold"
                    hint="Pending letters of one tree that make it worth telling."
                    error={errors.threshold}
                  >
                    {(control) => (
                      <input
                        {...control}
                        className="input input--compact"
                        inputMode="numeric"
                        value={draft.threshold}
                        onChange={(e) => onChange({ ...draft, threshold: e.target.value })}
                      />
                    )}
                  </Field>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {errors.events && (
        <p id={errorId} className="field__error">
          {errors.events}
        </p>
      )}
    </fieldset>
  );
}
