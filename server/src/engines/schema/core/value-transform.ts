import jsonPatch, { type Operation } from 'fast-json-patch';
import { invalidArgument } from '../../errors.js';
import { isJsonPointer, pointerTokens } from './json-pointer.js';
import type { ValueTransform } from './types.js';

/** The RFC 6902 operation kinds. */
export type PatchOpKind = 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';

/** A transform that failed on one value: which op, and why. Not thrown, so runs can go on. */
export interface TransformFailure {
  readonly ok: false;
  readonly opIndex: number;
  readonly op: PatchOpKind;
  readonly path: string;
  readonly message: string;
}

/** The outcome of applying a transform to one value. */
export type TransformResult = { readonly ok: true; readonly value: unknown } | TransformFailure;

const OP_KINDS: readonly string[] = ['add', 'remove', 'replace', 'move', 'copy', 'test'];
const NEEDS_FROM = new Set(['move', 'copy']);
const NEEDS_VALUE = new Set(['add', 'replace', 'test']);

// A checked transform with its value_json parsed once, however many values it is applied to.
interface PreparedOp {
  readonly op: PatchOpKind;
  readonly path: string;
  readonly from?: string;
  readonly value?: unknown;
}

// Keyed by the transform object, so a run that applies one transform to many values checks and
// parses it once, and a dropped transform is collected with its entry.
const prepared = new WeakMap<ValueTransform, readonly PreparedOp[]>();

/** Check a transform up front; throws InvalidArgument naming the bad field (e.g. transform.ops[2].from). */
export function validateTransform(transform: ValueTransform, field = 'transform'): void {
  prepare(transform, field);
}

/** Apply a transform to a copy of the value; the input is never changed. Throws only for an invalid transform. */
export function applyTransform(value: unknown, transform: ValueTransform): TransformResult {
  const ops = prepare(transform, 'transform');
  let document: unknown = structuredClone(value);
  for (const [index, op] of ops.entries()) {
    // Each application gets its own copy of the op's value: the patch inserts it by reference.
    const operation = { ...op, value: structuredClone(op.value) } as Operation;
    try {
      document = jsonPatch.applyOperation(document, operation, true, true, true, index).newDocument;
    } catch (error) {
      return failure(index, op, explain(error));
    }
    // fast-json-patch does not check 'from' when the target is the root, and yields undefined.
    if (document === undefined) return failure(index, op, 'from does not exist in the value');
  }
  return { ok: true, value: document };
}

/** One line for a transform failure, as dead letters carry them. */
export function formatTransformFailure(failure: TransformFailure): string {
  return `transform op ${failure.opIndex} (${failure.op} ${failure.path || '(root)'}): ${failure.message}`;
}

function prepare(transform: ValueTransform, field: string): readonly PreparedOp[] {
  const known = prepared.get(transform);
  if (known) return known;
  if (transform === null || typeof transform !== 'object' || !Array.isArray(transform.ops)) {
    throw invalidArgument(`${field}.ops`, 'must be a list of JSON Patch operations');
  }
  const ops = transform.ops.map((op, index) => prepareOp(op, `${field}.ops[${index}]`));
  prepared.set(transform, ops);
  return ops;
}

function prepareOp(op: ValueTransform['ops'][number], field: string): PreparedOp {
  if (op === null || typeof op !== 'object') {
    throw invalidArgument(field, 'must be a JSON Patch operation');
  }
  if (!OP_KINDS.includes(op.op)) {
    throw invalidArgument(
      `${field}.op`,
      `must be one of ${OP_KINDS.join(', ')}; got '${String(op.op)}'`,
    );
  }
  const kind = op.op as PatchOpKind;
  checkPointer(op.path, `${field}.path`);

  let from: string | undefined;
  if (NEEDS_FROM.has(kind)) {
    if (op.from === undefined) throw invalidArgument(`${field}.from`, `is required for '${kind}'`);
    checkPointer(op.from, `${field}.from`);
    // RFC 6902 §4.4: a location cannot be moved into one of its children.
    if (kind === 'move' && op.path.startsWith(`${op.from}/`)) {
      throw invalidArgument(`${field}.from`, 'cannot move a value into one of its own children');
    }
    from = op.from;
  }

  let value: unknown;
  if (NEEDS_VALUE.has(kind)) {
    if (op.valueJson === undefined) {
      throw invalidArgument(`${field}.value_json`, `is required for '${kind}'`);
    }
    try {
      value = JSON.parse(op.valueJson);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw invalidArgument(`${field}.value_json`, `not valid JSON: ${message}`);
    }
  }
  return {
    op: kind,
    path: op.path,
    ...(from === undefined ? {} : { from }),
    ...(NEEDS_VALUE.has(kind) ? { value } : {}),
  };
}

function checkPointer(pointer: unknown, field: string): void {
  if (!isJsonPointer(pointer)) {
    throw invalidArgument(
      field,
      `must be a JSON Pointer ('' or '/'-separated, '~' only as ~0 or ~1)`,
    );
  }
  // Refused up front so the failure names the field instead of surfacing per value.
  const tokens = pointerTokens(pointer);
  if (
    tokens.some(
      (token, i) =>
        token === '__proto__' || (token === 'prototype' && tokens[i - 1] === 'constructor'),
    )
  ) {
    throw invalidArgument(field, 'must not address __proto__ or constructor/prototype');
  }
}

function failure(opIndex: number, op: PreparedOp, message: string): TransformFailure {
  return { ok: false, opIndex, op: op.op, path: op.path, message };
}

// fast-json-patch's messages embed the whole document; say what went wrong without copying data.
const PATCH_ERRORS: Record<string, string> = {
  TEST_OPERATION_FAILED: 'test failed: the value at path differs from the expected value',
  OPERATION_PATH_UNRESOLVABLE: 'path does not exist in the value',
  OPERATION_FROM_UNRESOLVABLE: 'from does not exist in the value',
  OPERATION_PATH_CANNOT_ADD: 'cannot add at path: its parent does not exist',
  OPERATION_PATH_ILLEGAL_ARRAY_INDEX: 'path is not a valid array index',
  OPERATION_VALUE_OUT_OF_BOUNDS: 'array index is past the end of the array',
};

function explain(error: unknown): string {
  if (error instanceof jsonPatch.JsonPatchError) {
    return PATCH_ERRORS[error.name] ?? error.message.split('\n')[0] ?? error.name;
  }
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error);
}
