import { ErrorText } from '../../../components/ui/error-text';
import type { StoreSchemaVersionConfig } from '@store/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { GuardedButton } from '../../../components/ui/guarded-button';
import {
  checkVersionConfigDraft,
  draftFromConfig,
  emptyStep,
  type StepDraft,
  type VersionConfigErrors,
} from '../utils/version-config-draft';
import { useSetVersionConfigMutation } from '../api/use-version-config';
import { JsonTextField } from '../../../components/schema/json-text-field';

const PATCH_HINT =
  'A JSON Patch array, e.g. [{"op": "add", "path": "/status", "value": "new"}]. Blank: only bump the version.';

/** Edits the whole version config: current and target version and the migration steps. */
export function VersionConfigForm({
  treeId,
  config,
  guard,
}: {
  treeId: string;
  config: StoreSchemaVersionConfig | null;
  guard: { allowed: boolean; reason: string };
}) {
  const [draft, setDraft] = useState(() => draftFromConfig(config));
  const [submitted, setSubmitted] = useState(false);
  const save = useSetVersionConfigMutation(treeId);
  const check = checkVersionConfigDraft(draft);
  const found: VersionConfigErrors | undefined = check.ok ? undefined : check.errors;
  // Patch syntax is shown as it is typed; the other fields are judged once the user submits.
  const errors = submitted ? found : undefined;

  const updateStep = (index: number, patch: Partial<StepDraft>) => {
    setDraft({
      ...draft,
      steps: draft.steps.map((step, i) => (i === index ? { ...step, ...patch } : step)),
    });
    save.reset();
  };

  return (
    <form
      className="stack"
      aria-label="Version config editor"
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        if (check.ok) save.mutate(check.config);
      }}
    >
      <div className="schema-form-row">
        <Field
          label="Current version"
          hint="The version the tree’s entries are at now; new writes are stamped with it."
          error={errors?.current}
        >
          {(control) => (
            <input
              {...control}
              className="input schema-number"
              inputMode="numeric"
              value={draft.current}
              onChange={(event) => setDraft({ ...draft, current: event.target.value })}
            />
          )}
        </Field>
        <Field label="Target version" error={errors?.target}>
          {(control) => (
            <input
              {...control}
              className="input schema-number"
              inputMode="numeric"
              value={draft.target}
              onChange={(event) => setDraft({ ...draft, target: event.target.value })}
            />
          )}
        </Field>
      </div>
      {draft.steps.map((step, index) => {
        const stepErrors = errors?.steps[index];
        const name = `Step ${index + 1}`;
        return (
          <fieldset key={step.key} className="schema-step">
            <legend>{name}</legend>
            <div className="schema-form-row">
              <Field label={`${name} from version`} error={stepErrors?.from}>
                {(control) => (
                  <input
                    {...control}
                    className="input schema-number"
                    inputMode="numeric"
                    value={step.from}
                    onChange={(event) => updateStep(index, { from: event.target.value })}
                  />
                )}
              </Field>
              <Field label={`${name} to version`} error={stepErrors?.to}>
                {(control) => (
                  <input
                    {...control}
                    className="input schema-number"
                    inputMode="numeric"
                    value={step.to}
                    onChange={(event) => updateStep(index, { to: event.target.value })}
                  />
                )}
              </Field>
              <Button
                variant="ghost"
                aria-label={`Remove step ${index + 1}`}
                onClick={() =>
                  setDraft({ ...draft, steps: draft.steps.filter((_, i) => i !== index) })
                }
              >
                Remove
              </Button>
            </div>
            <JsonTextField
              label={`${name} JSON Patch`}
              hint={PATCH_HINT}
              rows={4}
              value={step.patch}
              onChange={(patch) => updateStep(index, { patch })}
              error={found?.steps[index]?.patch}
            />
          </fieldset>
        );
      })}
      {save.isError && (
        <div className="field__error" role="alert">
          <ErrorText error={save.error} lead="The server refused the version config:" />
        </div>
      )}
      <div className="schema-actions">
        <Button
          onClick={() => {
            const last = draft.steps.at(-1);
            const from = last?.to || draft.current;
            const next = /^\d+$/.test(from) ? String(Number(from) + 1) : '';
            setDraft({ ...draft, steps: [...draft.steps, emptyStep(from, next)] });
          }}
        >
          Add step
        </Button>
        <GuardedButton type="submit" variant="primary" busy={save.isPending} {...guard}>
          Save version config
        </GuardedButton>
      </div>
    </form>
  );
}
