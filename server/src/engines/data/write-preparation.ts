import { StoreError, invalidArgument } from '../errors.js';
import { MAX_JSON_DEPTH, canonicalJson, canonicalJsonOfParsed } from './canonical-json.js';
import { validateEntryKey } from './tree-names.js';

/** A write checked before it queues: its key, parsed value and canonical text. */
export interface PreparedWrite {
  key: string;
  value: unknown;
  canonical: string;
}

/**
 * Checks one entry's key and JSON and canonicalises the value. Errors name `field` (`key`,
 * `entries[3].value_json`, …), so a batch caller learns which entry was refused.
 */
export function prepareWrite(
  key: unknown,
  valueJson: unknown,
  maxValueBytes: number,
  fields: { key: string; value: string } = { key: 'key', value: 'value_json' },
): PreparedWrite {
  validateEntryKey(key, fields.key);
  if (typeof valueJson !== 'string') throw invalidArgument(fields.value, 'JSON text is required');
  // Before parsing, so a huge body costs no parse.
  checkValueSize(valueJson, maxValueBytes, fields.value);
  let value: unknown;
  try {
    value = JSON.parse(valueJson);
  } catch (error) {
    throw invalidArgument(fields.value, (error as Error).message);
  }
  return {
    key: key as string,
    value,
    canonical: canonicalValue(value, maxValueBytes, fields.value, canonicalJsonOfParsed),
  };
}

/** Canonical JSON of `value` within the size limit (a guard's replacement value, too). */
export function canonicalValue(
  value: unknown,
  maxValueBytes: number,
  field = 'value_json',
  canonicalise: (value: unknown) => string = canonicalJson,
): string {
  let text: string;
  try {
    text = canonicalise(value);
  } catch (error) {
    const message =
      error instanceof RangeError
        ? `nested deeper than ${MAX_JSON_DEPTH} levels`
        : (error as Error).message;
    throw invalidArgument(field, message);
  }
  // Canonical text can outgrow the original (1e9 → 1000000000).
  checkValueSize(text, maxValueBytes, field);
  return text;
}

function checkValueSize(text: string, maxValueBytes: number, field: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxValueBytes) {
    throw new StoreError(
      'resource_exhausted',
      `${field}: ${bytes} bytes is over the ${maxValueBytes}-byte limit`,
      field,
    );
  }
}
