import { Code, ConnectError } from '@connectrpc/connect';

/**
 * Refuses a request that carries a NUL character in any string (a field, a list item, a map key
 * or value) with InvalidArgument naming the field. PostgreSQL text cannot hold NUL, so such a
 * string would fail there as Internal while SQLite stored it; refusing it up front gives both
 * databases the same answer. No valid id, name, key or JSON text contains one.
 */
export function assertNoNulText(message: unknown): void {
  const path = nulPath(message);
  if (path !== undefined) {
    throw new ConnectError(
      `${fieldName(path) || 'request'}: must not contain NUL characters`,
      Code.InvalidArgument,
    );
  }
}

/**
 * Where the first NUL is: field names and list indexes from the outside in, or undefined.
 * Every request is walked, a PutEntries of 1 000 entries included, so the path is built only
 * on the way back out of a find; a clean request costs no names at all.
 */
function nulPath(value: unknown): (string | number)[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? [] : undefined;
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return undefined;
  if (Array.isArray(value)) {
    // The index too, so a batch caller (PutEntries) learns which item to fix.
    for (let index = 0; index < value.length; index++) {
      const found = nulPath(value[index]);
      if (found) return [index, ...found];
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (key === '$typeName') continue;
    // A oneof is { case, value }: name the member, not "value".
    const name = key === 'value' && 'case' in record ? String(record.case) : key;
    if (key.includes('\u0000')) return [name];
    const found = nulPath(record[key]);
    if (found) return [name, ...found];
  }
  return undefined;
}

/** `entries[3].value_json` from ['entries', 3, 'valueJson']. */
function fieldName(path: readonly (string | number)[]): string {
  return path
    .map((part, at) =>
      typeof part === 'number' ? `[${part}]` : `${at === 0 ? '' : '.'}${snakeCase(part)}`,
    )
    .join('');
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
