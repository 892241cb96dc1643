import { readImportLine, type ImportLineShape } from '@store/contract';

/**
 * The JSON Lines import: one JSON object per line, in either shape `readImportLine` reads — the
 * import's own `{"key": "<entry key>", "value": <any JSON>}` or an export artifact's
 * `{"key", "valueJson", "sequence", "schemaVersion"}`. Blank lines are skipped; a line ending may
 * be \n or \r\n; the file is UTF-8 (or gzip of it, see gzip-members.ts).
 */

/** A line that parsed into an entry to put. */
export interface ParsedEntry {
  line: number;
  key: string;
  valueJson: string;
  /** Which of the two line shapes it was written in. */
  shape: ImportLineShape;
  /** UTF-8 bytes of the entry as sent (key + value), for batch sizing. */
  bytes: number;
}

/** A line the console refuses before sending it. */
export interface RefusedLine {
  line: number;
  reason: string;
}

/** An export artifact's tombstone (a deletion): an import only writes, so it is skipped. */
export interface SkippedTombstone {
  line: number;
  tombstone: string;
}

/** Parses one line of the import file: an entry, a refusal, a tombstone, or null (blank). */
export function parseImportLine(
  text: string,
  line: number,
): ParsedEntry | RefusedLine | SkippedTombstone | null {
  const read = readImportLine(text);
  if (read === null) return null;
  switch (read.kind) {
    case 'refused':
      return { line, reason: read.reason };
    case 'tombstone':
      return { line, tombstone: read.key };
    case 'entry':
      return {
        line,
        key: read.key,
        valueJson: read.valueJson,
        shape: read.shape,
        bytes: utf8Length(read.key) + utf8Length(read.valueJson),
      };
  }
}

/** UTF-8 length of a string, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4; // a surrogate pair is one 4-byte character
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Splits a byte stream into lines as it arrives (UTF-8 decoded across chunk boundaries). Each
 * line comes with its size in the file (line ending included), so progress can be counted in
 * bytes of lines actually dealt with rather than bytes read ahead.
 */
export async function* readLines(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<{ text: string; line: number; bytes: number }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let line = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      let start = 0;
      let end = pending.indexOf('\n');
      while (end >= 0) {
        line += 1;
        const raw = pending.slice(start, end);
        yield { text: stripCarriageReturn(raw), line, bytes: utf8Length(raw) + 1 };
        start = end + 1;
        end = pending.indexOf('\n', start);
      }
      pending = pending.slice(start);
    }
    pending += decoder.decode();
    if (pending !== '') {
      line += 1;
      yield { text: stripCarriageReturn(pending), line, bytes: utf8Length(pending) };
    }
  } finally {
    reader.releaseLock();
  }
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

function stripCarriageReturn(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}
