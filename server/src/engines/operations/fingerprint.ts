import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every level, so two requests that differ only in key order
 * are the same request. Undefined members are dropped, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  // toJSON first (Date and friends), then sort what it produced.
  const plain = 'toJSON' in value && typeof value.toJSON === 'function' ? value.toJSON() : value;
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) return sortKeys(plain);
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(plain).sort()) {
    sorted[key] = sortKeys((plain as Record<string, unknown>)[key]);
  }
  return sorted;
}

/** sha256 (hex) of kind and canonical request: what makes a tracking id's reuse "the same". */
export function requestFingerprint(kind: string, canonicalRequestJson: string): string {
  return createHash('sha256').update(kind).update('\n').update(canonicalRequestJson).digest('hex');
}
