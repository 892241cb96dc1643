// Decodes the YAML the way Envoy does: YAML → JSON → proto3 JSON mapping into
// envoy.config.bootstrap.v3.Bootstrap, rejecting unknown fields and unresolvable `@type`s.
// fromJson alone says *what* failed but not *where*; the pre-walk below mirrors the JSON mapping
// far enough to name the path, and adds the hints a v2-era config needs.
import { fromJson, toJson } from '@bufbuild/protobuf';
import type { DescEnum, DescMessage, JsonValue, Message, Registry } from '@bufbuild/protobuf';
import type { Problem } from './problem.js';

const ANY = 'google.protobuf.Any';
const V2_PACKAGES =
  /^envoy\.(api\.v2|config\.filter\.|config\.[a-z_.]+\.v2(alpha)?\.|type\.matcher\.(?!v3))/;

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A type URL's message name, the way Envoy reads it: everything after the last '/'. */
export function typeNameOf(typeUrl: string): string {
  return typeUrl.slice(typeUrl.lastIndexOf('/') + 1);
}

function checkEnum(e: DescEnum, value: JsonValue, path: string, out: Problem[]): void {
  if (typeof value === 'number' || value === null) return; // numbers: defined_only decides later
  if (typeof value === 'string' && e.values.some((v) => v.name === value)) return;
  const upper = typeof value === 'string' ? value.toUpperCase() : '';
  const hint = e.values.some((v) => v.name === upper)
    ? ` (enum values are upper case: ${upper})`
    : ` (one of ${e.values.map((v) => v.name).join(', ')})`;
  out.push({
    kind: 'decode',
    path,
    message: `${JSON.stringify(value)} is not a value of enum ${e.typeName}${hint}`,
  });
}

function walkAny(json: JsonValue, path: string, registry: Registry, out: Problem[]): void {
  if (!isObject(json)) return;
  const typeUrl = json['@type'];
  if (typeof typeUrl !== 'string') {
    out.push({ kind: 'decode', path, message: 'an Any needs "@type"' });
    return;
  }
  const name = typeNameOf(typeUrl);
  const desc = registry.getMessage(name);
  if (!desc) {
    const hint = V2_PACKAGES.test(name)
      ? ' — this is an Envoy v2 API type; v2 was removed in Envoy 1.18, use the v3 type'
      : ' — no such message in the Envoy v3 API (typo?)';
    out.push({ kind: 'decode', path, message: `unknown @type "${typeUrl}"${hint}` });
    return;
  }
  const { '@type': _drop, ...body } = json;
  if (desc.typeName.startsWith('google.protobuf.')) {
    // Well-known types carry their special JSON form under "value".
    tryDecode(desc, body['value'] ?? null, `${path}<${name}>`, registry, out);
  } else walkMessage(desc, body, `${path}<${name}>`, registry, out);
}

function tryDecode(
  desc: DescMessage,
  json: JsonValue,
  path: string,
  registry: Registry,
  out: Problem[],
): void {
  try {
    fromJson(desc, json, { registry });
  } catch (error) {
    out.push({ kind: 'decode', path, message: (error as Error).message });
  }
}

function walkValue(
  kind: 'message' | 'enum' | 'scalar',
  target: DescMessage | DescEnum | undefined,
  json: JsonValue,
  path: string,
  registry: Registry,
  out: Problem[],
): void {
  if (kind === 'message' && target?.kind === 'message') {
    walkMessage(target, json, path, registry, out);
  } else if (kind === 'enum' && target?.kind === 'enum') checkEnum(target, json, path, out);
}

function walkMessage(
  desc: DescMessage,
  json: JsonValue,
  path: string,
  registry: Registry,
  out: Problem[],
): void {
  if (json === null) return;
  if (desc.typeName === ANY) return walkAny(json, path, registry, out);
  if (desc.typeName.startsWith('google.protobuf.'))
    return tryDecode(desc, json, path, registry, out);
  if (!isObject(json)) {
    out.push({ kind: 'decode', path, message: `expected an object for ${desc.typeName}` });
    return;
  }
  for (const [key, value] of Object.entries(json)) {
    const field = desc.fields.find((f) => f.name === key || f.jsonName === key);
    const at = path ? `${path}.${key}` : key;
    if (!field) {
      const hint =
        key === 'config'
          ? ' — v2 syntax: `config` (Struct) was removed, use `typed_config` with an "@type"'
          : '';
      out.push({
        kind: 'decode',
        path: at,
        message: `unknown field "${key}" in ${desc.typeName}${hint}`,
      });
      continue;
    }
    if (field.fieldKind === 'list') {
      if (!Array.isArray(value)) continue; // fromJson reports the shape
      const target = field.listKind === 'message' ? field.message : field.enum;
      value.forEach((item, i) =>
        walkValue(field.listKind, target, item, `${at}[${i}]`, registry, out),
      );
    } else if (field.fieldKind === 'map') {
      if (!isObject(value)) continue;
      const target = field.mapKind === 'message' ? field.message : field.enum;
      for (const [k, item] of Object.entries(value)) {
        walkValue(field.mapKind, target, item, `${at}[${JSON.stringify(k)}]`, registry, out);
      }
    } else if (field.fieldKind === 'message') {
      walkMessage(field.message, value, at, registry, out);
    } else if (field.fieldKind === 'enum') checkEnum(field.enum, value, at, out);
  }
}

export interface Decoded {
  message: Message | undefined;
  /** The canonical JSON (proto field names, defaults omitted) the semantic checks read. */
  canonical: JsonValue | undefined;
  problems: Problem[];
}

/** Decodes `json` (the YAML's data) into `desc`; problems carry the path Envoy would blame. */
export function decode(desc: DescMessage, json: unknown, registry: Registry): Decoded {
  const problems: Problem[] = [];
  walkMessage(desc, json as JsonValue, '', registry, problems);
  let message: Message | undefined;
  try {
    message = fromJson(desc, json as JsonValue, { registry });
  } catch (error) {
    if (problems.length === 0) {
      problems.push({ kind: 'decode', path: '', message: (error as Error).message });
    }
  }
  if (!message || problems.length > 0)
    return { message: undefined, canonical: undefined, problems };
  const canonical = toJson(desc, message, { registry, useProtoFieldName: true });
  return { message, canonical, problems };
}
