import { formatCount } from '../format';

/**
 * A count with its noun in the right number: "1 entry", "2 entries", "0 issues". English plurals
 * are not all "+s", so the plural is given whenever it is not.
 */
export function counted(count: bigint | number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${BigInt(count) === 1n ? one : many}`;
}
