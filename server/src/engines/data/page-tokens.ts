import { invalidArgument } from '../errors.js';

/** Page size when the caller sends 0. */
export const DEFAULT_PAGE_SIZE = 50;
/** Largest page a caller may ask for. */
export const MAX_PAGE_SIZE = 1000;

/** The page size to use: 0 → default, 1..max as sent, anything else InvalidArgument. */
export function resolvePageSize(
  value: number | undefined,
  { defaultSize = DEFAULT_PAGE_SIZE, maxSize = MAX_PAGE_SIZE } = {},
): number {
  const size = value ?? 0;
  if (!Number.isInteger(size) || size < 0 || size > maxSize) {
    throw invalidArgument('page_size', `must be between 0 and ${maxSize}`);
  }
  return size === 0 ? defaultSize : size;
}

/** An opaque token for the page after `last` (a key or a tree name). */
export function encodeKeyToken(last: string): string {
  return Buffer.from(last, 'utf8').toString('base64url');
}

/**
 * The position a token names, or undefined for the first page. `check` rejects positions that
 * could not have come from a page (InvalidArgument on page_token either way).
 */
export function decodeKeyToken(
  token: string | undefined,
  check: (position: string) => boolean,
): string | undefined {
  if (token === undefined || token === '') return undefined;
  // Node's decoder skips characters it does not know; insisting on a round trip catches them and
  // any bytes that are not UTF-8.
  if (/^[A-Za-z0-9_-]+$/.test(token)) {
    const position = Buffer.from(token, 'base64url').toString('utf8');
    if (encodeKeyToken(position) === token && check(position)) return position;
  }
  throw invalidArgument('page_token', 'not a token this server issued');
}
