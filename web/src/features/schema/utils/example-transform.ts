/** Used when the policy names no required property to derive a patch from. */
export const GENERIC_TRANSFORM = JSON.stringify(
  [{ op: 'add', path: '/status', value: 'unknown' }],
  null,
  2,
);

/** At most this many properties in the starting patch: an example to edit, not the whole fix. */
const MAX_OPS = 3;

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** RFC 6901: '~' and '/' in a property name are written ~0 and ~1. */
const pointer = (name: string) => `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** A value the property's own schema accepts, as far as it says: default, const, enum, type. */
function valueFor(property: unknown): unknown {
  if (!isObject(property)) return null;
  if ('default' in property) return property.default;
  if ('const' in property) return property.const;
  if (Array.isArray(property.enum) && property.enum.length > 0) return property.enum[0];
  const type = Array.isArray(property.type) ? property.type[0] : property.type;
  switch (type) {
    case 'string':
      return typeof property.minLength === 'number' && property.minLength > 0
        ? 'x'.repeat(property.minLength)
        : '';
    case 'integer':
    case 'number':
      return typeof property.minimum === 'number' ? property.minimum : 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return null;
  }
}

/**
 * The transform a remediation form starts with: for the first properties the policy requires,
 * an "add" of a value their schema accepts, e.g. `[{"op": "add", "path": "/name", "value": ""}]`
 * for a policy that requires a string "name". A real RFC 6902 patch for this tree that the admin
 * edits, rather than an example unrelated to its policy. Without a policy or a required property
 * (or a schema that does not parse) it is a generic example.
 */
export function exampleTransform(jsonSchema: string | undefined): string {
  let schema: unknown;
  try {
    schema = jsonSchema ? JSON.parse(jsonSchema) : null;
  } catch {
    return GENERIC_TRANSFORM;
  }
  if (!isObject(schema) || !Array.isArray(schema.required)) return GENERIC_TRANSFORM;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = schema.required.filter((name): name is string => typeof name === 'string');
  if (required.length === 0) return GENERIC_TRANSFORM;
  const ops = required
    .slice(0, MAX_OPS)
    .map((name) => ({ op: 'add', path: pointer(name), value: valueFor(properties[name]) }));
  return JSON.stringify(ops, null, 2);
}
