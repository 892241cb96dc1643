/** The outcome of checking JSON text typed into a form. */
export type JsonCheck = { ok: true } | { ok: false; message: string };

/** Line and column (1-based) of a character offset, for an error a person can find. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/**
 * Whether `text` is one JSON value, with the parser's message (and where, as line and column)
 * when it is not. The server parses again; this only saves a round trip for a typo.
 */
export function checkJsonText(text: string): JsonCheck {
  if (text.trim() === '') return { ok: false, message: 'Enter a JSON value, e.g. {"name": "x"}' };
  try {
    JSON.parse(text);
    return { ok: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(message);
    if (position && !/line \d+/.test(message)) {
      const { line, column } = lineAndColumn(text, Number(position[1]));
      return { ok: false, message: `${message} (line ${line}, column ${column})` };
    }
    return { ok: false, message };
  }
}

/**
 * Indents JSON text without parsing it into JavaScript values, so large integers and exact
 * decimals are shown exactly as stored (JSON.parse would round 2^53 + 1). Text that is not JSON
 * comes back as it was; the caller shows it raw.
 */
export function formatJsonText(text: string, indent = '  '): string {
  let out = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  const newline = () => `\n${indent.repeat(depth)}`;
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (inString) {
      out += char;
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      out += char;
    } else if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']';
      const next = nextSignificant(text, i + 1);
      if (text.charAt(next) === close) {
        // An empty container stays on one line: {} and [].
        out += char + close;
        i = next;
      } else {
        depth++;
        out += char + newline();
      }
    } else if (char === '}' || char === ']') {
      depth = Math.max(0, depth - 1);
      out += newline() + char;
    } else if (char === ',') {
      out += char + newline();
    } else if (char === ':') {
      out += ': ';
    } else if (!/\s/.test(char)) {
      out += char;
    }
  }
  return out;
}

function nextSignificant(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text.charAt(i))) i++;
  return i;
}
