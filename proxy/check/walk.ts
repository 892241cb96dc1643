// Walks a decoded config the way Envoy's MessageUtil::validate does: every set field is checked
// for deprecation, every field with `validate.rules` is checked against them, and the walk goes
// on into nested messages, repeated and map values, and the payload of every Any.
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import type { Any } from '@bufbuild/protobuf/wkt';
import { FeatureSet_FieldPresence } from '@bufbuild/protobuf/wkt';
import type { DescEnum, DescField, DescMessage, Message, Registry } from '@bufbuild/protobuf';
import { isReflectMessage, reflect } from '@bufbuild/protobuf/reflect';
import type { ReflectList, ReflectMap, ReflectMessage } from '@bufbuild/protobuf/reflect';
import {
  OptionReader,
  checkAnyType,
  checkEnumValue,
  checkScalar,
  requiresPresence,
  ruleType,
} from './pgv.js';
import type { Plain } from './pgv.js';
import type { Problem } from './problem.js';

const WRAPPERS =
  /^google\.protobuf\.(Double|Float|Int64|UInt64|Int32|UInt32|Bool|String|Bytes)Value$/;

type Kind = 'scalar' | 'enum' | 'message';

class Walker {
  readonly problems: Problem[] = [];
  private readonly options: OptionReader;

  constructor(private readonly registry: Registry) {
    this.options = new OptionReader(registry);
  }

  private add(kind: Problem['kind'], path: string, message: string): void {
    this.problems.push({ kind, path, message });
  }

  message(r: ReflectMessage, path: string): void {
    const validate = !this.options.messageDisabled(r.desc);
    if (r.desc.deprecated) this.add('deprecated', path, `${r.desc.typeName} is deprecated`);
    for (const oneof of r.oneofs) {
      if (validate && this.options.oneofRequired(oneof) && !r.oneofCase(oneof)) {
        const names = oneof.fields.map((f) => f.name).join(', ');
        this.add('rule', path, `exactly one of ${names} is required (oneof ${oneof.name})`);
      }
    }
    for (const field of r.fields)
      this.field(r, field, path ? `${path}.${field.name}` : field.name, validate);
  }

  private field(r: ReflectMessage, field: DescField, at: string, validate: boolean): void {
    const set = r.isSet(field);
    const deprecation = set ? this.options.fieldDeprecation(field) : undefined;
    if (deprecation)
      this.add(
        'deprecated',
        at,
        `field ${field.name} of ${field.parent.typeName} is ${deprecation}`,
      );
    const rules = validate ? this.options.fieldRules(field) : undefined;
    const emit = (message: string) => this.add('rule', at, message);
    switch (field.fieldKind) {
      case 'scalar':
      case 'enum': {
        // Proto3 implicit-presence fields are validated even when zero; that is how Envoy catches
        // an empty required name. Oneof members and `optional` fields only when set.
        const explicit =
          field.oneof !== undefined || field.presence === FeatureSet_FieldPresence.EXPLICIT;
        if (!set && explicit) return;
        const target = field.fieldKind === 'enum' ? field.enum : undefined;
        this.value(field.fieldKind, target, r.get(field), at, rules, emit, set);
        return;
      }
      case 'message':
        if (!set) {
          // A oneof member's rules only apply to the member that is set.
          if (field.oneof === undefined && requiresPresence(rules)) emit('is required');
          return;
        }
        this.value('message', field.message, r.get(field), at, rules, emit, true);
        return;
      case 'list': {
        const list = r.get(field) as ReflectList;
        const rep = rules?.['repeated'] as Plain | undefined;
        if (rep?.['min_items'] !== undefined && list.size < Number(rep['min_items'])) {
          emit(list.size === 0 ? 'must not be empty' : `needs at least ${rep['min_items']} items`);
        }
        if (rep?.['max_items'] !== undefined && list.size > Number(rep['max_items'])) {
          emit(`allows at most ${rep['max_items']} items`);
        }
        const items = [...list].map((v) => (isReflectMessage(v) ? v.message : v));
        if (rep?.['unique'] === true && new Set(items).size !== items.length) {
          emit('items must be unique');
        }
        const itemRules = rep?.['items'] as Plain | undefined;
        const target = field.listKind === 'message' ? field.message : field.enum;
        let i = 0;
        for (const v of list) {
          const itemAt = `${at}[${i++}]`;
          this.value(
            field.listKind,
            target,
            v,
            itemAt,
            itemRules,
            (m) => this.add('rule', itemAt, m),
            true,
          );
        }
        return;
      }
      case 'map': {
        const map = r.get(field) as ReflectMap;
        const m = rules?.['map'] as Plain | undefined;
        if (m?.['min_pairs'] !== undefined && map.size < Number(m['min_pairs'])) {
          emit(`needs at least ${m['min_pairs']} entries`);
        }
        if (m?.['max_pairs'] !== undefined && map.size > Number(m['max_pairs'])) {
          emit(`allows at most ${m['max_pairs']} entries`);
        }
        const target = field.mapKind === 'message' ? field.message : field.enum;
        for (const [k, v] of map) {
          const entryAt = `${at}[${JSON.stringify(k)}]`;
          const entryEmit = (msg: string) => this.add('rule', entryAt, msg);
          if (m?.['keys']) checkScalar(m['keys'] as Plain, k, entryEmit);
          this.value(
            field.mapKind,
            target,
            v,
            entryAt,
            m?.['values'] as Plain | undefined,
            entryEmit,
            true,
          );
        }
        return;
      }
    }
  }

  /** One value: a singular field, a list item or a map value (`present`: explicitly set). */
  private value(
    kind: Kind,
    target: DescMessage | DescEnum | undefined,
    v: unknown,
    at: string,
    rules: Plain | undefined,
    emit: (message: string) => void,
    present: boolean,
  ): void {
    if (kind === 'scalar') {
      if (rules) checkScalar(rules, v, emit);
    } else if (kind === 'enum' && target?.kind === 'enum') {
      const value = target.values.find((x) => x.number === v);
      const deprecation = value && this.options.enumValueDeprecation(value);
      if (deprecation && present) {
        this.add(
          'deprecated',
          at,
          `enum value ${value.name} of ${target.typeName} is ${deprecation}`,
        );
      }
      if (rules) checkEnumValue(rules, value !== undefined, v as number, emit);
    } else if (kind === 'message' && isReflectMessage(v)) {
      this.messageValue(v, at, rules, emit);
    }
  }

  private messageValue(
    v: ReflectMessage,
    at: string,
    rules: Plain | undefined,
    emit: (m: string) => void,
  ) {
    const typeName = v.desc.typeName;
    const type = rules ? ruleType(rules) : undefined;
    if (rules && type && (WRAPPERS.test(typeName) || type === 'duration' || type === 'timestamp')) {
      // Rules on a wrapper apply to the wrapped value; duration rules to the Duration itself.
      const inner = WRAPPERS.test(typeName)
        ? (v.message as Message & { value: unknown }).value
        : v.message;
      checkScalar(rules, inner, emit);
    }
    if ((rules?.['message'] as Plain | undefined)?.['skip'] === true) return;
    if (typeName === 'google.protobuf.Any') {
      const any = v.message as Any;
      if (rules) checkAnyType(rules, any.typeUrl, emit);
      const inner = anyUnpack(any, this.registry);
      const desc = inner && this.registry.getMessage(inner.$typeName);
      if (inner && desc) this.message(reflect(desc, inner), `${at}<${desc.typeName}>`);
      return;
    }
    if (typeName.startsWith('google.protobuf.')) return; // no rules inside well-known types
    this.message(v, at);
  }
}

/** Deprecation and PGV problems of a decoded message tree. */
export function walkConfig(desc: DescMessage, message: Message, registry: Registry): Problem[] {
  const walker = new Walker(registry);
  walker.message(reflect(desc, message), '');
  return walker.problems;
}
