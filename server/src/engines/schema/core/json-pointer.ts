// RFC 6901: '' or a sequence of '/'-prefixed tokens, where '~' may only start '~0' or '~1'.
const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;

/** Whether text is a syntactically valid RFC 6901 JSON Pointer. */
export function isJsonPointer(text: unknown): text is string {
  return typeof text === 'string' && JSON_POINTER.test(text);
}

/** Split a valid JSON Pointer into its unescaped reference tokens. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Escape one reference token for use in a JSON Pointer. */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
