import { StoreSchemaMode, type StoreSchemaPolicy } from '@store/contract';
import { useId } from 'react';
import { Field } from '../../../components/ui/field';
import { prettyJson } from '../../../lib/json-syntax';
import {
  type CheckedPolicy,
  type PolicyDraft,
  type PolicyDraftErrors,
} from '../utils/policy-draft';
import type { PolicyInit } from '../api/use-policy';
import { JsonTextField } from '../../../components/schema/json-text-field';

export const EMPTY_SCHEMA = '{\n  "type": "object"\n}';

/** The form's starting state from a stored policy (or a blank object schema at version 1). */
export function policyDraftFrom(policy: StoreSchemaPolicy | null | undefined): PolicyDraft {
  if (!policy) return { schema: EMPTY_SCHEMA, mode: 'ENFORCE', version: '1', description: '' };
  return {
    schema: prettyJson(policy.jsonSchema),
    mode: policy.mode === StoreSchemaMode.AUDIT ? 'AUDIT' : 'ENFORCE',
    version: String(policy.version),
    description: policy.description,
  };
}

/** A checked policy as the wire's init shape. */
export function toPolicyInit(policy: CheckedPolicy): PolicyInit {
  return {
    jsonSchema: policy.jsonSchema,
    mode: policy.mode === 'AUDIT' ? StoreSchemaMode.AUDIT : StoreSchemaMode.ENFORCE,
    version: policy.version,
    description: policy.description,
  };
}

export interface PolicyFieldsProps {
  /** Prefixes the labels so two policy forms on one page stay distinguishable. */
  labelPrefix?: string;
  draft: PolicyDraft;
  onChange: (draft: PolicyDraft) => void;
  errors: PolicyDraftErrors;
}

/** JSON Schema text, mode, version and description of a policy. */
export function PolicyFields({ labelPrefix = '', draft, onChange, errors }: PolicyFieldsProps) {
  const modeName = useId();
  // "Target JSON Schema", "Target mode": acronyms keep their case.
  const label = (text: string) =>
    labelPrefix
      ? `${labelPrefix} ${text.startsWith('JSON') ? text : text.charAt(0).toLowerCase() + text.slice(1)}`
      : text;
  return (
    <div className="stack">
      <JsonTextField
        label={label('JSON Schema')}
        hint="JSON Schema draft 2020-12. Syntax is checked as you type; the server compiles it."
        value={draft.schema}
        onChange={(schema) => onChange({ ...draft, schema })}
        error={errors.schema}
        rows={10}
      />
      <div className="schema-form-row">
        <fieldset className="schema-radios">
          <legend className="field__label">{label('Mode')}</legend>
          {(['ENFORCE', 'AUDIT'] as const).map((mode) => (
            <label key={mode}>
              <input
                type="radio"
                name={modeName}
                value={mode}
                checked={draft.mode === mode}
                onChange={() => onChange({ ...draft, mode })}
              />{' '}
              {mode === 'ENFORCE'
                ? 'Enforce (failing writes go to dead letters)'
                : 'Audit (writes apply; scans report them)'}
            </label>
          ))}
        </fieldset>
        <Field label={label('Policy version')} error={errors.version}>
          {(control) => (
            <input
              {...control}
              className="input schema-number"
              inputMode="numeric"
              value={draft.version}
              onChange={(event) => onChange({ ...draft, version: event.target.value })}
            />
          )}
        </Field>
        <Field label={label('Description')}>
          {(control) => (
            <input
              {...control}
              className="input"
              value={draft.description}
              onChange={(event) => onChange({ ...draft, description: event.target.value })}
            />
          )}
        </Field>
      </div>
    </div>
  );
}
