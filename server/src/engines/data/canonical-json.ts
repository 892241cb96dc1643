/**
 * Canonical JSON text: object keys sorted by UTF-16 code units at every depth, no whitespace,
 * otherwise JSON.stringify's rules (toJSON honoured, undefined and functions dropped from objects
 * and written as null in arrays, non-finite numbers as null). Two values that are equal as JSON
 * give the same text, so stored values can be hashed, compared and diffed stably.
 */

/** Deepest nesting accepted; deeper values would risk the stack and no real document needs it. */
export const MAX_JSON_DEPTH = 512;

/** The canonical JSON text of a value; TypeError when it has none, RangeError when too deep. */
export function canonicalJson(value: unknown): string {
  const text = serialise(value, 0);
  if (text === undefined) throw new TypeError('value has no JSON representation');
  return text;
}

/** Parses JSON text and returns its canonical form (errors as JSON.parse / canonicalJson). */
export function canonicaliseJsonText(text: string): { value: unknown; canonical: string } {
  const value: unknown = JSON.parse(text);
  return { value, canonical: canonicalJsonOfParsed(value) };
}

/**
 * canonicalJson of a value JSON.parse returned (plain objects, arrays and scalars only). Most
 * documents arrive with their keys already in order (writers that canonicalise, exports, our
 * own backups); for those the native JSON.stringify writes the canonical text, several times
 * faster than building it by hand, so a walk that only checks key order goes first.
 */
export function canonicalJsonOfParsed(value: unknown): string {
  return keysInOrder(value, 0) ? JSON.stringify(value) : canonicalJson(value);
}

/** Every object's own keys, in the order JSON.stringify visits them, are sorted as text. */
function keysInOrder(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (depth >= MAX_JSON_DEPTH) throw new RangeError(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  if (Array.isArray(value)) return value.every((item) => keysInOrder(item, depth + 1));
  // Integer-like keys come first in this order whatever the text says ({"9","10"} → 9, 10),
  // which the comparison catches, so such objects take the slow path.
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && (keys[i - 1] as string) >= (keys[i] as string)) return false;
    if (!keysInOrder((value as Record<string, unknown>)[keys[i] as string], depth + 1)) return false;
  }
  return true;
}

function serialise(value: unknown, depth: number): string | undefined {
  const plain =
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
      ? (value as { toJSON: () => unknown }).toJSON()
      : value;
  if (plain === null || typeof plain !== 'object') return JSON.stringify(plain);
  if (depth >= MAX_JSON_DEPTH) {
    throw new RangeError(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  if (Array.isArray(plain)) {
    // Array.from visits holes of a sparse array too (as undefined → null, as JSON.stringify).
    return `[${Array.from(plain, (item) => serialise(item, depth + 1) ?? 'null').join(',')}]`;
  }
  // Built by hand: JSON.stringify would put integer-like keys first whatever order we asked for.
  const members: string[] = [];
  for (const key of Object.keys(plain).sort()) {
    const text = serialise((plain as Record<string, unknown>)[key], depth + 1);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}
