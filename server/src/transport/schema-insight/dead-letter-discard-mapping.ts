import type { DeadLetterSelection as WireSelection } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import type { DiscardSelection } from '../../engines/schema/insight/dead-letter-discard.js';
import { invalidArgument } from '../../engines/errors.js';
import { filterFromProto } from './schema-insight-mapping.js';

/**
 * The engine's discard selection from the wire. A count may omit it (every pending letter); a
 * discard must name one, so an empty request never discards a whole tree by accident.
 */
export function selectionFromProto(
  selection: WireSelection | undefined,
  { required }: { required: boolean },
): DiscardSelection {
  const chosen = selection?.selection;
  switch (chosen?.case) {
    case 'deadLetterId':
      if (chosen.value <= 0n || chosen.value > BigInt(Number.MAX_SAFE_INTEGER)) {
        throw invalidArgument('selection.dead_letter_id', 'must be a positive id');
      }
      return { kind: 'one', id: Number(chosen.value) };
    case 'filter':
      return { kind: 'filter', filter: filterFromProto(chosen.value) };
    case 'all':
      if (!chosen.value) throw invalidArgument('selection.all', 'must be true when chosen');
      return { kind: 'all' };
    default:
      if (required) {
        throw invalidArgument('selection', 'name one letter, a filter, or all');
      }
      return { kind: 'all' };
  }
}

/** expected_count as a JavaScript number; out of range is InvalidArgument. */
export function expectedCountFromProto(count: bigint): number {
  if (count < 0n || count > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw invalidArgument('expected_count', 'must be the count the caller confirmed (0 or more)');
  }
  return Number(count);
}
