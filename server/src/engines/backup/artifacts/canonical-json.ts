/**
 * Canonical JSON: object keys sorted by UTF-16 code unit at every depth, no whitespace. Written
 * by hand because JSON.stringify keeps insertion order and always puts integer-like keys
 * ("10", "2") first, so two equal manifests could otherwise hash differently.
 */
export function canonicalJson(value: unknown): string {
  // One plain-JSON round trip first: applies toJSON (dates), drops undefined and functions,
  // and turns NaN/Infinity into null exactly as the stored file will have them.
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError('value has no JSON representation');
  return write(JSON.parse(json) as unknown);
}

function write(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(write).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${write(record[k])}`).join(',')}}`;
}
