// protoc-gen-validate (`validate.rules`) evaluation: the checks Envoy's generated Validate() runs
// on every message it loads. Rules are read from the descriptor options of the API protos, turned
// into plain objects holding only the *set* rule fields (proto2 defaults must not count as rules).
import { isIP } from 'node:net';
import { getExtension, hasExtension } from '@bufbuild/protobuf';
import type {
  DescEnumValue,
  DescExtension,
  DescField,
  DescMessage,
  DescOneof,
  Message,
  Registry,
} from '@bufbuild/protobuf';
import { isReflectList, isReflectMessage, reflect } from '@bufbuild/protobuf/reflect';

export type Plain = Record<string, unknown>;
type Emit = (message: string) => void;

/** A message with only its set fields, keyed by proto name; nested messages and lists likewise. */
function plain(desc: DescMessage, message: Message): Plain {
  const r = reflect(desc, message);
  const out: Plain = {};
  for (const f of r.fields) {
    if (!r.isSet(f)) continue;
    const v: unknown = r.get(f);
    const conv = (x: unknown): unknown => (isReflectMessage(x) ? plain(x.desc, x.message) : x);
    out[f.name] = isReflectList(v) ? [...v].map(conv) : conv(v);
  }
  return out;
}

function ext(registry: Registry, name: string): DescExtension {
  const found = registry.getExtension(name);
  if (!found) throw new Error(`extension ${name} missing from the Envoy descriptor set`);
  return found;
}

/** An option (extension of a *Options message) of a descriptor element, or undefined. */
function option(element: { proto: { options?: Message } }, extension: DescExtension): unknown {
  const options = element.proto.options;
  // The generic Extendee type cannot be inferred from a registry-built extension; the runtime
  // checks that the extension extends this options message.
  if (!options || !hasExtension(options as never, extension)) return undefined;
  return getExtension(options as never, extension);
}

/** Reads validation and deprecation options once per descriptor element. */
export class OptionReader {
  private readonly rules: DescExtension;
  private readonly required: DescExtension;
  private readonly disabled: DescExtension;
  private readonly deprecatedAt: DescExtension;
  private readonly deprecatedEnumAt: DescExtension;
  private readonly fieldCache = new Map<DescField, Plain | undefined>();

  constructor(registry: Registry) {
    this.rules = ext(registry, 'validate.rules');
    this.required = ext(registry, 'validate.required');
    this.disabled = ext(registry, 'validate.disabled');
    this.deprecatedAt = ext(registry, 'envoy.annotations.deprecated_at_minor_version');
    this.deprecatedEnumAt = ext(registry, 'envoy.annotations.deprecated_at_minor_version_enum');
  }

  fieldRules(field: DescField): Plain | undefined {
    if (this.fieldCache.has(field)) return this.fieldCache.get(field);
    const value = option(field, this.rules) as Message | undefined;
    const rules = value ? plain(this.rules.message!, value) : undefined;
    this.fieldCache.set(field, rules);
    return rules;
  }

  oneofRequired(oneof: DescOneof): boolean {
    return option(oneof, this.required) === true;
  }

  messageDisabled(desc: DescMessage): boolean {
    return option(desc, this.disabled) === true;
  }

  /** "deprecated" or "deprecated at API 3.x", or undefined when the field is current. */
  fieldDeprecation(field: DescField): string | undefined {
    const at = option(field, this.deprecatedAt) as string | undefined;
    if (!field.deprecated && !at) return undefined;
    return at ? `deprecated since API ${at}` : 'deprecated';
  }

  enumValueDeprecation(value: DescEnumValue): string | undefined {
    const at = option(value, this.deprecatedEnumAt) as string | undefined;
    if (!value.deprecated && !at) return undefined;
    return at ? `deprecated since API ${at}` : 'deprecated';
  }
}

const NUMERIC = [
  'float', 'double', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64',
  'fixed32', 'fixed64', 'sfixed32', 'sfixed64',
]; // prettier-ignore

/** Which member of FieldRules.type is set (string, uint32, duration, …). */
export function ruleType(rules: Plain): string | undefined {
  return Object.keys(rules).find((k) => k !== 'message');
}

function seconds(d: unknown): number {
  const { seconds: s = 0, nanos: n = 0 } = (d ?? {}) as { seconds?: bigint; nanos?: number };
  return Number(s) + n / 1e9;
}

/** gt/gte/lt/lte with PGV's meaning: lt < gt means "outside the range". */
function checkRange(r: Plain, v: number, show: (x: unknown) => string, emit: Emit): void {
  const bound = (x: unknown) =>
    x === undefined ? undefined : typeof x === 'object' ? seconds(x) : Number(x);
  const [gt, gte, lt, lte] = [r['gt'], r['gte'], r['lt'], r['lte']].map(bound);
  const lower = gt !== undefined ? v > gt : gte !== undefined ? v >= gte : undefined;
  const upper = lt !== undefined ? v < lt : lte !== undefined ? v <= lte : undefined;
  const bounds = ['gt', 'gte', 'lt', 'lte']
    .filter((k) => r[k] !== undefined)
    .map((k) => `${{ gt: '>', gte: '>=', lt: '<', lte: '<=' }[k]} ${show(r[k])}`);
  const lo = gt ?? gte;
  const hi = lt ?? lte;
  const exclusive = lo !== undefined && hi !== undefined && hi < lo;
  const ok = exclusive ? lower || upper : lower !== false && upper !== false;
  if (!ok) emit(`must be ${bounds.join(exclusive ? ' or ' : ' and ')}, got ${show(v)}`);
}

function checkSet(r: Plain, v: unknown, same: (a: unknown, b: unknown) => boolean, emit: Emit) {
  const show = (x: unknown) => (typeof x === 'string' ? JSON.stringify(x) : String(x));
  if (r['const'] !== undefined && !same(r['const'], v)) emit(`must equal ${show(r['const'])}`);
  const isIn = r['in'] as unknown[] | undefined;
  if (isIn?.length && !isIn.some((x) => same(x, v))) emit(`must be one of ${isIn.map(show)}`);
  const notIn = r['not_in'] as unknown[] | undefined;
  if (notIn?.some((x) => same(x, v))) emit(`must not be ${show(v)}`);
}

const HEADER_NAME = /^:?[0-9a-zA-Z!#$%&'*+\-.^_|~`]+$/;
/** RFC 7230 field-value (strict: no CTLs but tab) or the loose form (no NUL, CR, LF). */
function isHeaderValue(s: string, strict: boolean): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (strict ? (c < 0x20 && c !== 0x09) || c === 0x7f : c === 0 || c === 0x0a || c === 0x0d) {
      return false;
    }
  }
  return true;
}

function isHostname(s: string): boolean {
  const host = s.endsWith('.') ? s.slice(0, -1) : s;
  if (host.length === 0 || host.length > 253) return false;
  return host.split('.').every((l) => /^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/.test(l));
}

function checkString(r: Plain, s: string, emit: Emit): void {
  if (r['ignore_empty'] === true && s === '') return;
  const chars = [...s].length;
  const bytes = Buffer.byteLength(s);
  const n = (k: string) => (r[k] === undefined ? undefined : Number(r[k]));
  if (n('len') !== undefined && chars !== n('len')) emit(`must be ${n('len')} characters long`);
  if (n('min_len') !== undefined && chars < n('min_len')!) {
    emit(s === '' ? 'must not be empty' : `must be at least ${n('min_len')} characters long`);
  }
  if (n('max_len') !== undefined && chars > n('max_len')!) {
    emit(`must be at most ${n('max_len')} characters long`);
  }
  if (n('min_bytes') !== undefined && bytes < n('min_bytes')!) {
    emit(s === '' ? 'must not be empty' : `must be at least ${n('min_bytes')} bytes long`);
  }
  if (n('max_bytes') !== undefined && bytes > n('max_bytes')!) {
    emit(`must be at most ${n('max_bytes')} bytes long`);
  }
  const text = (k: string) => r[k] as string | undefined;
  if (text('prefix') !== undefined && !s.startsWith(text('prefix')!)) {
    emit(`must start with "${text('prefix')}"`);
  }
  if (text('suffix') !== undefined && !s.endsWith(text('suffix')!)) {
    emit(`must end with "${text('suffix')}"`);
  }
  if (text('contains') !== undefined && !s.includes(text('contains')!)) {
    emit(`must contain "${text('contains')}"`);
  }
  if (text('not_contains') !== undefined && s.includes(text('not_contains')!)) {
    emit(`must not contain "${text('not_contains')}"`);
  }
  if (text('pattern') !== undefined) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(text('pattern')!, 'u'); // RE2 syntax; the few RE2-only forms are skipped
    } catch {
      re = undefined;
    }
    if (re && !re.test(s)) emit(`must match /${text('pattern')}/`);
  }
  checkSet(r, s, (a, b) => a === b, emit);
  const wellKnown: Record<string, [(x: string) => boolean, string]> = {
    hostname: [isHostname, 'a hostname'],
    ip: [(x) => isIP(x) !== 0, 'an IP address'],
    ipv4: [(x) => isIP(x) === 4, 'an IPv4 address'],
    ipv6: [(x) => isIP(x) === 6, 'an IPv6 address'],
    address: [(x) => isIP(x) !== 0 || isHostname(x), 'a hostname or IP address'],
    email: [(x) => /^[^@\s]+@[^@\s]+$/.test(x), 'an email address'],
    uri: [(x) => URL.canParse(x), 'an absolute URI'],
    uuid: [(x) => /^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(x), 'a UUID'],
  };
  for (const [key, [test, what]] of Object.entries(wellKnown)) {
    if (r[key] === true && !test(s)) emit(`must be ${what}, got ${JSON.stringify(s)}`);
  }
  const known = r['well_known_regex'];
  const strict = r['strict'] !== false;
  if (known === 1 && !HEADER_NAME.test(s)) emit(`must be an HTTP header name, got "${s}"`);
  if (known === 2 && !isHeaderValue(s, strict)) {
    emit('must be a valid HTTP header value');
  }
}

/** Rules on one value of the field's own type (not the presence / repeated rules). */
export function checkScalar(rules: Plain, value: unknown, emit: Emit): void {
  const type = ruleType(rules);
  if (!type) return;
  const r = rules[type] as Plain;
  if (NUMERIC.includes(type)) {
    const v = Number(value);
    checkSet(r, v, (a, b) => Number(a) === Number(b), emit);
    checkRange(r, v, String, emit);
  } else if (type === 'bool') {
    if (r['const'] !== undefined && r['const'] !== value) emit(`must be ${String(r['const'])}`);
  } else if (type === 'string' && typeof value === 'string') {
    checkString(r, value, emit);
  } else if (type === 'bytes' && value instanceof Uint8Array) {
    const min = r['min_len'] === undefined ? undefined : Number(r['min_len']);
    const max = r['max_len'] === undefined ? undefined : Number(r['max_len']);
    if (min !== undefined && value.length < min) emit(`must be at least ${min} bytes`);
    if (max !== undefined && value.length > max) emit(`must be at most ${max} bytes`);
  } else if (type === 'duration' || type === 'timestamp') {
    const v = seconds(value);
    const same = (a: unknown, b: unknown) => seconds(a) === Number(b);
    checkSet(r, v, same, emit);
    checkRange(r, v, (x) => `${typeof x === 'object' ? seconds(x) : Number(x)}s`, emit);
  }
}

/** Enum rules: defined_only, const, in, not_in. */
export function checkEnumValue(rules: Plain, defined: boolean, value: number, emit: Emit): void {
  const r = rules['enum'] as Plain | undefined;
  if (!r) return;
  if (r['defined_only'] === true && !defined) emit(`${value} is not a defined enum value`);
  checkSet(r, value, (a, b) => Number(a) === Number(b), emit);
}

/** Rules that only look at presence: message.required, duration/any/timestamp.required. */
export function requiresPresence(rules: Plain | undefined): boolean {
  if (!rules) return false;
  const type = ruleType(rules);
  const typed = type ? (rules[type] as Plain) : {};
  return (
    (rules['message'] as Plain | undefined)?.['required'] === true || typed['required'] === true
  );
}

/** Any rules: in / not_in on the type URL. */
export function checkAnyType(rules: Plain, typeUrl: string, emit: Emit): void {
  const r = rules['any'] as Plain | undefined;
  if (r) checkSet(r, typeUrl, (a, b) => a === b, emit);
}
