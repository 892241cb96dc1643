import { Code, ConnectError } from '@connectrpc/connect';

/**
 * Refuses a request that carries a NUL character in any string (a field, a list item, a map key
 * or value) with InvalidArgument naming the field. PostgreSQL text cannot hold NUL, so such a
 * string would fail there as Internal while SQLite stored it; refusing it up front gives both
 * databases the same answer. No valid id, name, key or JSON text contains one.
 */
export function assertNoNulText(message: unknown): void {
  // Every request is walked, a PutEntries of 1 000 entries included: the walk that finds out
  // builds no field names; only a refused request pays for naming its field.
  if (!containsNul(message)) return;
  const field = nulField(message, '');
  if (field !== undefined) {
    throw new ConnectError(
      `${field || 'request'}: must not contain NUL characters`,
      Code.InvalidArgument,
    );
  }
}

function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      if (containsNul(value[index])) return true;
    }
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (key.includes('\u0000') || containsNul(record[key])) return true;
  }
  return false;
}

function nulField(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return undefined;
  if (Array.isArray(value)) {
    // The index too, so a batch caller (PutEntries) learns which item to fix.
    for (const [index, item] of value.entries()) {
      const found = nulField(item, `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key === '$typeName') continue;
    // A oneof is { case, value }: name the member, not "value".
    const name = key === 'value' && 'case' in value ? String(value.case) : key;
    const child = path === '' ? snakeCase(name) : `${path}.${snakeCase(name)}`;
    if (key.includes('\u0000')) return child;
    const found = nulField(item, child);
    if (found !== undefined) return found;
  }
  return undefined;
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
