import { checkJson, formatSyntaxError } from '../../../lib/json-syntax';
import { parseVersion } from './version-config-draft';

/**
 * A JSON Schema text as the policy editor checks it before sending: valid JSON, and an object or
 * a boolean (the server's rule: "schema must be object or boolean"). Whether it compiles as JSON
 * Schema 2020-12 only the server knows; its InvalidArgument is shown under the editor.
 */
export function checkSchemaText(text: string): string | null {
  if (text.trim() === '') return 'A JSON Schema is required';
  const parsed = checkJson(text);
  if (!parsed.ok) return formatSyntaxError(parsed.error);
  const value = parsed.value;
  if (typeof value !== 'boolean' && (typeof value !== 'object' || value === null)) {
    return 'A JSON Schema is an object (or true / false)';
  }
  if (Array.isArray(value)) return 'A JSON Schema is an object, not an array';
  return null;
}

/** The policy form's fields as typed. */
export interface PolicyDraft {
  schema: string;
  mode: 'ENFORCE' | 'AUDIT';
  version: string;
  description: string;
}

export interface PolicyDraftErrors {
  schema?: string;
  version?: string;
}

/** What SetPolicy / StartRemediation send (the wire enum is mapped by the caller). */
export interface CheckedPolicy {
  jsonSchema: string;
  mode: 'ENFORCE' | 'AUDIT';
  version: number;
  description: string;
}

/** Checks the whole policy form; every field's error at once. */
export function checkPolicyDraft(
  draft: PolicyDraft,
): { ok: true; policy: CheckedPolicy } | { ok: false; errors: PolicyDraftErrors } {
  const errors: PolicyDraftErrors = {};
  const schemaError = checkSchemaText(draft.schema);
  if (schemaError) errors.schema = schemaError;
  const version = parseVersion(draft.version);
  if (typeof version === 'string') errors.version = version;
  if (errors.schema || errors.version) return { ok: false, errors };
  return {
    ok: true,
    policy: {
      jsonSchema: draft.schema,
      mode: draft.mode,
      version: version as number,
      description: draft.description.trim(),
    },
  };
}
