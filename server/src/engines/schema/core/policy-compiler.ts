import { createHash } from 'node:crypto';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { invalidArgument } from '../../errors.js';
import { canonicalJson } from '../../data/canonical-json.js';
import { linearRegExp } from './linear-regexp.js';
import { POLICY_FORMATS } from './policy-formats.js';
import { LruCache } from './lru-cache.js';
import { checkSchemaLimits } from './schema-limits.js';
import { addLinearUniqueItems } from './unique-items.js';
import type { PolicyMode, SchemaPolicy, Violation } from './types.js';
import { isUint32 } from './uint32.js';

/** How many compiled schemas stay cached; policies change rarely, trees are many. */
export const VALIDATOR_CACHE_SIZE = 256;

/**
 * Caps on a policy's JSON Schema text: size in UTF-8 bytes and nesting depth. Validation cost
 * grows with the schema; a tenant admin must not be able to make one put cost seconds.
 */
export const MAX_POLICY_SCHEMA_BYTES = 256 * 1024;
export const MAX_POLICY_SCHEMA_DEPTH = 64;

/** How many violations a report or dead letter keeps by default. */
export const DEFAULT_VIOLATION_LIMIT = 100;

/** A compiled JSON Schema: checks values and explains failures. */
export interface PolicyValidator {
  /** SHA-256 (hex) of the schema text the validator was compiled from. */
  readonly schemaHash: string;
  /** The value's first `limit` violations (default DEFAULT_VIOLATION_LIMIT); empty when it passes. */
  validate(value: unknown, limit?: number): Violation[];
  /** Whether the value passes, without building messages. */
  isValid(value: unknown): boolean;
  /** The first `limit` violations with the JSON Schema keyword that failed (dry-runs group by it). */
  explain(value: unknown, limit?: number): KeywordViolation[];
}

/** A violation with the keyword that failed ('minimum', 'required', …). */
export interface KeywordViolation extends Violation {
  readonly keyword: string;
}

/** A policy whose schema compiled, ready to check values. */
export interface CompiledPolicy {
  readonly mode: PolicyMode;
  readonly version: number;
  readonly validator: PolicyValidator;
}

const POLICY_MODES: readonly PolicyMode[] = ['ENFORCE', 'AUDIT'];
const cache = new LruCache<string, PolicyValidator>(VALIDATOR_CACHE_SIZE);

/** Check a policy's mode and version; throws InvalidArgument naming the field. */
export function checkPolicyFields(policy: SchemaPolicy, field = 'policy'): void {
  if (!POLICY_MODES.includes(policy.mode)) {
    throw invalidArgument(`${field}.mode`, `must be enforce or audit, got ${String(policy.mode)}`);
  }
  if (!isUint32(policy.version)) {
    throw invalidArgument(`${field}.version`, `must be an unsigned 32-bit integer`);
  }
}

/** Check a policy's fields and compile its schema; throws InvalidArgument naming the field. */
export function compilePolicy(policy: SchemaPolicy, field = 'policy'): CompiledPolicy {
  checkPolicyFields(policy, field);
  const validator = compileSchema(policy.jsonSchema, `${field}.json_schema`);
  return { mode: policy.mode, version: policy.version, validator };
}

/** Compile JSON Schema 2020-12 text (cached by its hash); throws InvalidArgument on bad input. */
export function compileSchema(jsonSchema: string, field = 'policy.json_schema'): PolicyValidator {
  if (typeof jsonSchema !== 'string' || jsonSchema.trim() === '') {
    throw invalidArgument(field, 'a JSON Schema is required');
  }
  const bytes = Buffer.byteLength(jsonSchema);
  if (bytes > MAX_POLICY_SCHEMA_BYTES) {
    throw invalidArgument(
      field,
      `is ${bytes} bytes; a policy schema may hold at most ${MAX_POLICY_SCHEMA_BYTES}`,
    );
  }
  const schemaHash = createHash('sha256').update(jsonSchema).digest('hex');
  const cached = cache.get(schemaHash);
  if (cached) return cached;

  let schema: unknown;
  try {
    schema = JSON.parse(jsonSchema);
  } catch (error) {
    throw invalidArgument(field, `not valid JSON: ${messageOf(error)}`);
  }
  // Ajv's own wording; checked here because Ajv crashes on null instead of reporting it.
  if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null)) {
    throw invalidArgument(field, 'schema must be object or boolean');
  }
  if (nestingDepth(schema) > MAX_POLICY_SCHEMA_DEPTH) {
    throw invalidArgument(
      field,
      `nests deeper than ${MAX_POLICY_SCHEMA_DEPTH} levels of objects and arrays`,
    );
  }
  checkSchemaLimits(schema, field);

  let compiled: ValidateFunction;
  try {
    compiled = newAjv().compile(schema as object | boolean);
  } catch (error) {
    throw invalidArgument(field, messageOf(error));
  }
  const validator = wrap(schemaHash, compiled);
  cache.set(schemaHash, validator);
  return validator;
}

/** At most `limit` violations of the value against the validator, in Ajv's order. */
export function firstViolations(
  validator: PolicyValidator,
  value: unknown,
  limit = DEFAULT_VIOLATION_LIMIT,
): Violation[] {
  return validator.validate(value, limit);
}

/** One line for a violation, as dead letters carry them ('(root)' for the whole value). */
export function formatViolation(violation: Violation): string {
  return `${violation.path === '' ? '(root)' : violation.path}: ${violation.message}`;
}

/** Forget every compiled schema (tests, or after a configuration reload). */
export function clearValidatorCache(): void {
  cache.clear();
}

// A fresh Ajv per compilation: Ajv registers each schema under its $id, so a shared instance would
// refuse a second tree's schema with the same $id, and a failed compile would leave it registered.
// Compiling happens once per distinct schema text thanks to the cache, so the cost is paid rarely.
// One compilation with allErrors: a validator that stops at the first error was measured to
// compile several times slower on wide allOf/anyOf (Ajv nests one block per branch; 2 000
// branches overflow the stack), and passing values build no error list either way.
function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    // Real-world schemas carry unknown keywords and loose constructs; strict mode would refuse them
    // (and it keeps a format the server does not know an annotation instead of a compile error).
    strict: false,
    // 'format' is asserted for the formats in POLICY_FORMATS (ajv-formats' set, on linear-time
    // matching); every path that judges a value (write guard, scans, dry-run, ValidateValue,
    // remediation) compiles here, so they agree on it.
    validateFormats: true,
    formats: POLICY_FORMATS,
    logger: false,
    // pattern / patternProperties match in linear time (RE2), never by backtracking.
    code: { regExp: linearRegExp },
  });
  addLinearUniqueItems(ajv);
  return ajv;
}

/** How deeply objects and arrays nest in a parsed JSON value (a scalar is 0), without recursion. */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_POLICY_SCHEMA_DEPTH) return deepest;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return deepest;
}

function wrap(schemaHash: string, compiled: ValidateFunction): PolicyValidator {
  // Ajv keeps errors on the function: copy at most `limit` out before the next call overwrites
  // them (a value can fail thousands of times over; a report keeps the first ones).
  const errorsOf = (value: unknown, limit: number): ErrorObject[] =>
    compiled(value) === true ? [] : (compiled.errors ?? []).slice(0, Math.max(0, limit));
  return {
    schemaHash,
    isValid: (value) => compiled(value) === true,
    validate: (value, limit = DEFAULT_VIOLATION_LIMIT) => errorsOf(value, limit).map(toViolation),
    explain: (value, limit = DEFAULT_VIOLATION_LIMIT) =>
      errorsOf(value, limit).map((error) => ({ ...toViolation(error), keyword: error.keyword })),
  };
}

function toViolation(error: ErrorObject): Violation {
  return { path: error.instancePath, message: describe(error) };
}

// Ajv's messages leave out which property or value was at fault for these keywords.
function describe(error: ErrorObject): string {
  const message = error.message ?? `fails "${error.keyword}"`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${message}: '${String(params['additionalProperty'])}'`;
    case 'unevaluatedProperties':
      return `${message}: '${String(params['unevaluatedProperty'])}'`;
    case 'propertyNames':
      return `${message}: '${String(params['propertyName'])}'`;
    case 'enum':
      return `${message}: ${canonicalJson(params['allowedValues'] ?? null)}`;
    case 'const':
      return `${message}: ${canonicalJson(params['allowedValue'] ?? null)}`;
    default:
      return message;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
