/** The largest value a proto uint32 field can carry. */
export const UINT32_MAX = 0xffff_ffff;

/** Whether a number fits a proto uint32 (versions are uint32 on the wire). */
export function isUint32(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= UINT32_MAX;
}
