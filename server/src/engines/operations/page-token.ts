import { invalidArgument } from '../errors.js';

/** Where a page ends: the last row's sort key (created_at desc, id desc). */
export interface PagePosition {
  createdAt: number;
  id: string;
}

/** An opaque token for the page after this position. */
export function encodePageToken(position: PagePosition): string {
  return Buffer.from(JSON.stringify({ v: 1, c: position.createdAt, i: position.id })).toString(
    'base64url',
  );
}

/** The position a page token names; InvalidArgument when it was not made by encodePageToken. */
export function decodePageToken(token: string): PagePosition {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (parsed && typeof parsed === 'object') {
      const { v, c, i } = parsed as Record<string, unknown>;
      if (v === 1 && Number.isSafeInteger(c) && typeof i === 'string') {
        return { createdAt: c as number, id: i };
      }
    }
  } catch {
    // Falls through to the one error every malformed token gets.
  }
  throw invalidArgument('page_token', 'not a token this server issued');
}
