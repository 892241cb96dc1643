/**
 * Client-side argument checks, run before anything is sent (spec 000 and 001, Client argument
 * validation). The .NET exceptions map to TypeScript idiom: ArgumentNullException → TypeError,
 * ArgumentException → ArgumentError, ArgumentOutOfRangeException → RangeError.
 */

/** An argument that is present but unusable, such as an empty id (ArgumentException). */
export class ArgumentError extends Error {
  override readonly name = 'ArgumentError';
  constructor(
    readonly argument: string,
    message: string,
  ) {
    super(`${argument}: ${message}`);
  }
}

/** Refuses null or undefined (ArgumentNullException). */
export function requirePresent<T>(value: T | null | undefined, argument: string): T {
  if (value === null || value === undefined) {
    throw new TypeError(`${argument} is required`);
  }
  return value;
}

/** Refuses an explicit null while letting undefined fall back to a default. */
export function refuseNull<T>(value: T | null | undefined, argument: string, fallback: T): T {
  if (value === null) throw new TypeError(`${argument} must not be null`);
  return value ?? fallback;
}

/** Refuses a missing or empty id or tree id (ArgumentException). */
export function requireId(value: string | null | undefined, argument: string): string {
  if (value === null || value === undefined || typeof value !== 'string' || value.length === 0) {
    throw new ArgumentError(argument, 'must be a non-empty string');
  }
  return value;
}

/** Refuses an interval of zero or less (ArgumentOutOfRangeException). */
export function requirePositiveMs(value: number, argument: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${argument} must be a positive number of milliseconds, got ${value}`);
  }
  return value;
}

/** Refuses anything that is not a uint32 (the spec's uint version numbers). */
export function requireUint32(value: number, argument: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new RangeError(`${argument} must be an integer from 0 to 4294967295, got ${value}`);
  }
  return value;
}
