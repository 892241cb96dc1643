import type { JsonPatchOperation } from '@store/contract';
import { checkJson, formatSyntaxError } from '../../../lib/json-syntax';

/** One JSON Patch operation as the wire carries it (the value travels as JSON text). */
export type WirePatchOp = Pick<JsonPatchOperation, 'op' | 'path' | 'from' | 'valueJson'>;

export type PatchCheck = { ok: true; ops: WirePatchOp[] } | { ok: false; message: string };

const OP_KINDS = ['add', 'remove', 'replace', 'move', 'copy', 'test'];
const NEEDS_FROM = new Set(['move', 'copy']);
const NEEDS_VALUE = new Set(['add', 'replace', 'test']);
// RFC 6901: '' or '/'-separated tokens where '~' appears only as ~0 or ~1.
const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;

/**
 * Checks a JSON Patch (RFC 6902) written as the usual JSON array and turns it into wire ops.
 * The same rules as the server's transform check (value-transform.ts), so a mistake shows next
 * to the editor, naming the op, before anything is sent.
 */
export function parsePatch(text: string): PatchCheck {
  const parsed = checkJson(text);
  if (!parsed.ok) return { ok: false, message: formatSyntaxError(parsed.error) };
  if (!Array.isArray(parsed.value)) {
    return { ok: false, message: 'A JSON Patch is an array of operations: [{"op": …}, …]' };
  }
  const ops: WirePatchOp[] = [];
  for (const [index, item] of (parsed.value as unknown[]).entries()) {
    const checked = checkOp(item, index);
    if (typeof checked === 'string') return { ok: false, message: checked };
    ops.push(checked);
  }
  return { ok: true, ops };
}

function checkOp(item: unknown, index: number): WirePatchOp | string {
  const where = `Operation ${index + 1}`;
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    return `${where}: must be an object such as {"op": "add", "path": "/a", "value": 1}`;
  }
  const op = item as Record<string, unknown>;
  if (typeof op.op !== 'string' || !OP_KINDS.includes(op.op)) {
    return `${where}: "op" must be one of ${OP_KINDS.join(', ')}`;
  }
  if (typeof op.path !== 'string' || !JSON_POINTER.test(op.path)) {
    return `${where}: "path" must be a JSON Pointer ('' or like "/a/0", '~' only as ~0 or ~1)`;
  }
  const wire: WirePatchOp = { op: op.op, path: op.path };
  if (NEEDS_FROM.has(op.op)) {
    if (typeof op.from !== 'string' || !JSON_POINTER.test(op.from)) {
      return `${where}: "${op.op}" needs "from", a JSON Pointer`;
    }
    if (op.op === 'move' && op.path.startsWith(`${op.from}/`)) {
      return `${where}: cannot move a value into one of its own children`;
    }
    wire.from = op.from;
  }
  if (NEEDS_VALUE.has(op.op)) {
    if (!('value' in op)) return `${where}: "${op.op}" needs "value"`;
    wire.valueJson = JSON.stringify(op.value);
  }
  return wire;
}

/** Wire ops back to the JSON Patch text the editor shows (pretty, two-space indent). */
export function formatPatch(ops: readonly WirePatchOp[]): string {
  return JSON.stringify(ops.map(patchObject), null, 2);
}

/** One wire op as its RFC 6902 object; a value that is not JSON stays as its text. */
export function patchObject(op: WirePatchOp): Record<string, unknown> {
  const object: Record<string, unknown> = { op: op.op, path: op.path };
  if (op.from !== undefined) object.from = op.from;
  if (op.valueJson !== undefined) {
    const value = checkJson(op.valueJson);
    object.value = value.ok ? value.value : op.valueJson;
  }
  return object;
}

/** One op in a line: `replace /status "active"`, `move /a → /b`. */
export function describeOp(op: WirePatchOp): string {
  const path = op.path || '(root)';
  if (op.from !== undefined) return `${op.op} ${op.from} → ${path}`;
  if (op.valueJson !== undefined) return `${op.op} ${path} ${op.valueJson}`;
  return `${op.op} ${path}`;
}
