import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { StoreSchemaDeadLetterReason } from '@store/contract';
import type { DeadLetterFilterSchema } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { reasonLabel } from './dead-letter-reason';

/** The Dead letters section's filter as typed: one reason (or any), a key prefix, a time. */
export interface LetterFilter {
  reason: StoreSchemaDeadLetterReason;
  keyPrefix: string;
  /** A datetime-local value (the browser's time zone), or '' for any time. */
  before: string;
}

export const NO_FILTER: LetterFilter = {
  reason: StoreSchemaDeadLetterReason.UNSPECIFIED,
  keyPrefix: '',
  before: '',
};

/** The `before` time in epoch ms, or undefined when empty or not a time. */
export function beforeMs(filter: LetterFilter): number | undefined {
  if (filter.before === '') return undefined;
  const ms = new Date(filter.before).getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

/** Whether the filter narrows the letters at all. */
export function isFiltered(filter: LetterFilter): boolean {
  return (
    filter.reason !== StoreSchemaDeadLetterReason.UNSPECIFIED ||
    filter.keyPrefix !== '' ||
    beforeMs(filter) !== undefined
  );
}

/** The filter on the wire (ListDeadLetters, CountPendingDeadLetters, DiscardDeadLetters). */
export function toWireFilter(
  filter: LetterFilter,
): MessageInitShape<typeof DeadLetterFilterSchema> {
  const before = beforeMs(filter);
  return {
    keyPrefix: filter.keyPrefix,
    reasons: filter.reason === StoreSchemaDeadLetterReason.UNSPECIFIED ? [] : [filter.reason],
    ...(before !== undefined && { deadLetteredBefore: timestampFromMs(before) }),
  };
}

/** 'with reason Schema violation, key prefix "a/", set aside before 2025-01-02 03:04 UTC'. */
export function describeFilter(filter: LetterFilter): string {
  const before = beforeMs(filter);
  const parts = [
    filter.reason !== StoreSchemaDeadLetterReason.UNSPECIFIED &&
      `reason ${reasonLabel(filter.reason)}`,
    filter.keyPrefix !== '' && `key prefix "${filter.keyPrefix}"`,
    before !== undefined &&
      `set aside before ${new Date(before).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  ].filter((part): part is string => typeof part === 'string');
  return parts.length === 0 ? 'of any kind' : `with ${parts.join(', ')}`;
}
