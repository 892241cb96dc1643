import { formatCount } from '../../../lib/format';
import { counted } from '../../../lib/words';

/**
 * A backup's sequence range (from, to] in words: a full backup from the start holds every change
 * up to `to`; an incremental holds the changes after its base's sequence up to `to`.
 */
export function sequenceRangeWords(from: bigint, to: bigint): string {
  if (from === 0n) return `every change up to sequence ${formatCount(to)}`;
  if (from === to) return `no change after sequence ${formatCount(from)}`;
  return `changes after sequence ${formatCount(from)} up to ${formatCount(to)}`;
}

/** The range as the manifest writes it, for the tooltip: "(3084, 3087]". */
export function sequenceRangeRaw(from: bigint, to: bigint): string {
  return `(${from.toString()}, ${to.toString()}]`;
}

/** "3 entries, of which 3 deletions": the entry count includes the tombstones it carries. */
export function entryCountWords(entries: bigint, tombstones: bigint): string {
  const total = counted(entries, 'entry', 'entries');
  if (tombstones === 0n) return total;
  return `${total}, of which ${counted(tombstones, 'deletion')}`;
}
