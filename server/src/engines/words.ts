/**
 * Words for server messages people read: a moment in the server's own zone, labelled (a caller's
 * zone is unknown here; the console shows stored times in the reader's), and a quoted name.
 * Never an ISO stamp, an enum name or a raw id where a name exists.
 */

const MOMENT = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "25 Nov 2026, 10:00 UTC". */
export function momentWords(ms: number): string {
  return `${MOMENT.format(new Date(ms))} UTC`;
}

/** A name in curly quotes, so a name with spaces ("full 3") reads as one thing. */
export function quoted(name: string): string {
  return `“${name}”`;
}

/** "“a”", "“a” and “b”", "“a”, “b” and 2 more" (at most `shown` names). */
export function nameList(names: readonly string[], shown = 3): string {
  const q = names.map(quoted);
  if (q.length <= 1) return q.join('');
  if (q.length <= shown) return `${q.slice(0, -1).join(', ')} and ${q.at(-1)}`;
  return `${q.slice(0, shown).join(', ')} and ${q.length - shown} more`;
}
