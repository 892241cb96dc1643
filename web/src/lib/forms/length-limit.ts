/**
 * Says that a typed or pasted value is over a length limit, with both numbers, or undefined when
 * it fits. Fields never cut what was typed (`maxLength` would, silently, on paste: a 175-character
 * tree name once became another tree); they refuse it with this sentence instead.
 */
export function overLengthError(value: string, max: number, what: string): string | undefined {
  const length = [...value].length;
  if (length <= max) return undefined;
  return `${what} holds at most ${max.toLocaleString('en-US')} characters; this one has ${length.toLocaleString('en-US')} (nothing was cut)`;
}
