import { invalidArgument } from '../errors.js';

/** Longest tree name or tenant id (DESIGN.md §4). */
export const MAX_NAME_LENGTH = 128;
/** Longest entry key, in UTF-8 bytes. */
export const MAX_KEY_BYTES = 1024;

// ASCII only on purpose: look-alike letters, separators and escapes can then never smuggle a
// path such as "../x" or "t/other/x" into the scoped id.
const NAME_PATTERN = /^[A-Za-z0-9._-]+$/;
// With the u flag a paired surrogate is one code point, so this matches only lone halves, which
// UTF-8 (and so both databases) cannot store.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** A short, printable quote of what the caller sent, so a 10 KB name does not flood the message. */
function quote(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return JSON.stringify(shown);
}

function validateName(value: unknown, field: string, what: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw invalidArgument(field, `${what} is required`);
  }
  if (value.length > MAX_NAME_LENGTH) {
    throw invalidArgument(field, `${what} is longer than ${MAX_NAME_LENGTH} characters`);
  }
  if (!NAME_PATTERN.test(value) || value === '.' || value === '..') {
    throw invalidArgument(
      field,
      `${what} ${quote(value)} must be 1–${MAX_NAME_LENGTH} characters of A–Z, a–z, 0–9, '.', '_' ` +
        `or '-', and not '.' or '..'`,
    );
  }
  return value;
}

/** Checks a tenant-local tree name; InvalidArgument naming `field` otherwise. */
export function validateTreeName(value: unknown, field = 'tree_id'): string {
  return validateName(value, field, 'tree name');
}

/** Checks a tenant id (same rule as tree names); InvalidArgument naming `field` otherwise. */
export function validateTenantId(value: unknown, field = 'tenant'): string {
  return validateName(value, field, 'tenant id');
}

/** Checks an entry key: 1–1024 UTF-8 bytes, no NUL, well-formed Unicode. */
export function validateEntryKey(value: unknown, field = 'key'): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw invalidArgument(field, 'key is required');
  }
  return validateKeyText(value, field);
}

/** Checks a key prefix: like a key, but may be empty (no prefix). */
export function validateKeyPrefix(value: unknown, field = 'key_prefix'): string {
  if (value === undefined || value === '') return '';
  if (typeof value !== 'string') throw invalidArgument(field, 'key prefix must be text');
  return validateKeyText(value, field);
}

function validateKeyText(value: string, field: string): string {
  // Cheap upper bound first: a UTF-16 unit is at most 3 UTF-8 bytes, and at least 1.
  if (value.length > MAX_KEY_BYTES || Buffer.byteLength(value, 'utf8') > MAX_KEY_BYTES) {
    throw invalidArgument(field, `longer than ${MAX_KEY_BYTES} UTF-8 bytes`);
  }
  if (value.includes('\0')) throw invalidArgument(field, 'must not contain NUL');
  if (LONE_SURROGATE.test(value)) throw invalidArgument(field, 'is not well-formed Unicode');
  return value;
}

/** The facade's scoped form of a tree: `t/{tenant}/{name}` (both validated). */
export function scopedTreeId(tenant: string, name: string): string {
  return `t/${validateTenantId(tenant)}/${validateTreeName(name)}`;
}
