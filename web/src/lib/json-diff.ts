import { diffLines } from 'diff';

/** One line of a JSON diff: shown on both sides, only before, or only after. */
export interface JsonDiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Pretty JSON (2 spaces) of a value's JSON text; the text itself when it does not parse. */
export function prettyJson(text: string | undefined): string {
  if (text === undefined) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * The line diff of two JSON values as pretty-printed text (jsdiff's diffLines): a value that is
 * absent on one side (ADDED, REMOVED) shows as all added or all removed lines.
 */
export function jsonDiffLines(
  before: string | undefined,
  after: string | undefined,
): JsonDiffLine[] {
  const a = prettyJson(before);
  const b = prettyJson(after);
  const lines: JsonDiffLine[] = [];
  for (const change of diffLines(a === '' ? '' : `${a}\n`, b === '' ? '' : `${b}\n`)) {
    const kind = change.added ? 'added' : change.removed ? 'removed' : 'same';
    for (const text of change.value.replace(/\n$/, '').split('\n')) lines.push({ kind, text });
  }
  return lines;
}
