import { invalidArgument } from '../errors.js';
import { validateKeyPrefix, validateTreeName } from '../data/tree-names.js';
import { assertSafeSegment } from './artifacts/index.js';
import type { ScopeInput } from './backup-types.js';

/** DESIGN.md §3: capture page_size and restore apply_batch_size 0 → 1000, at most 10 000. */
export const DEFAULT_STEP = 1000;
export const MAX_STEP = 10_000;
/** Catalog pages: 0 → 50, at most 1000. */
export const DEFAULT_CATALOG_PAGE = 50;
export const MAX_CATALOG_PAGE = 1000;

/** A page or batch size: 0 → the default, else 1..max; InvalidArgument naming the field. */
export function stepSize(value: number, field: string, fallback = DEFAULT_STEP, max = MAX_STEP) {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw invalidArgument(field, `must be between 0 and ${max}`);
  }
  return value === 0 ? fallback : value;
}

/** A backup id as the API takes it (also one safe path segment of the artifact store). */
export function validateBackupId(value: unknown, field = 'backup_id'): string {
  if (typeof value !== 'string' || value === '') throw invalidArgument(field, 'is required');
  assertSafeSegment(value, field);
  return value;
}

/** A validated scope; the prefix is undefined when empty. */
export function validateScope(
  scope: ScopeInput | undefined,
  field = 'scope',
): Required<ScopeInput> {
  if (!scope) throw invalidArgument(field, 'is required');
  const treeId = validateTreeName(scope.treeId, `${field}.tree_id`);
  const keyPrefix = validateKeyPrefix(scope.keyPrefix, `${field}.key_prefix`);
  return { treeId, keyPrefix };
}

/** A backup name: 1–200 characters. */
export function validateBackupName(value: unknown, field = 'name'): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalidArgument(field, 'is required');
  if (value.length > 200) throw invalidArgument(field, 'is longer than 200 characters');
  return value;
}

/** Labels: at most 64, keys 1–63 characters, values at most 256. */
export function validateLabels(labels: Record<string, string>): Record<string, string> {
  const entries = Object.entries(labels);
  if (entries.length > 64) throw invalidArgument('labels', 'at most 64 labels');
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > 63) throw invalidArgument('labels', `bad key ${key}`);
    if (value.length > 256) throw invalidArgument('labels', `value of ${key} is too long`);
  }
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * google.protobuf.Duration's own range (±10 000 years). A longer interval is not a valid
 * Duration: it could not be answered back (the effective interval) nor stored as int64 ms.
 */
export const MAX_INTERVAL_MS = 315_576_000_000 * 1000;

/** A positive interval of at most MAX_INTERVAL_MS; InvalidArgument otherwise. */
export function validateInterval(ms: number | undefined, field = 'interval'): number {
  if (ms === undefined || !Number.isFinite(ms) || ms <= 0) {
    throw invalidArgument(field, 'must be a positive duration');
  }
  if (ms > MAX_INTERVAL_MS) {
    throw invalidArgument(field, 'must be at most 10 000 years (the range of a protobuf Duration)');
  }
  return ms;
}
