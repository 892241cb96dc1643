import { StringDecoder } from 'node:string_decoder';
import { StoreError } from '../../errors.js';
import type { ArtifactRecord } from './artifact-types.js';

/**
 * One artifact line. Field names are spelled out so an operator can read a cold backup with
 * `zcat | jq`. `valueJson` is stored as a JSON string, not inlined: re-serialising a parsed value
 * is not guaranteed to give back the same text, and restore must write back exactly what was read.
 */
export function encodeRecord(record: ArtifactRecord): string {
  const { key, valueJson, sequence, schemaVersion } = record;
  if (typeof key !== 'string' || (valueJson !== null && typeof valueJson !== 'string')) {
    throw new TypeError('artifact record needs a string key and a string or null valueJson');
  }
  if (!Number.isSafeInteger(sequence) || !Number.isSafeInteger(schemaVersion)) {
    throw new TypeError('artifact record needs integer sequence and schemaVersion');
  }
  // Hand-built rather than JSON.stringify(record): fixed field order, no object walk per record.
  return (
    `{"key":${JSON.stringify(key)},"valueJson":${valueJson === null ? 'null' : JSON.stringify(valueJson)}` +
    `,"sequence":${sequence},"schemaVersion":${schemaVersion}}\n`
  );
}

function corruptLine(detail: string): StoreError {
  return new StoreError('data_loss', `artifact is corrupt: ${detail}`);
}

/** Parses one line back into a record; anything malformed is DataLoss. */
export function decodeRecord(line: string): ArtifactRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw corruptLine('a line is not JSON');
  }
  const r = parsed as Partial<ArtifactRecord> | null;
  if (
    r === null ||
    typeof r !== 'object' ||
    typeof r.key !== 'string' ||
    (r.valueJson !== null && typeof r.valueJson !== 'string') ||
    !Number.isSafeInteger(r.sequence) ||
    !Number.isSafeInteger(r.schemaVersion)
  ) {
    throw corruptLine('a line is not an entry record');
  }
  return {
    key: r.key,
    valueJson: r.valueJson,
    sequence: r.sequence as number,
    schemaVersion: r.schemaVersion as number,
  };
}

/**
 * Splits decompressed chunks into lines (without their newline), a chunk's worth at a time; see
 * RecordLineDecoder for why `\n` always ends a line.
 */
export class LineSplitter {
  private carry: Buffer | undefined;

  /**
   * Lines completed by this chunk. The bytes are cut at the last newline before decoding, so no
   * character is split and the text is decoded once, without joining strings.
   */
  push(chunk: Buffer): string[] {
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const end = bytes.lastIndexOf(0x0a);
    if (end === -1) {
      this.carry = bytes;
      return [];
    }
    this.carry = end + 1 < bytes.length ? bytes.subarray(end + 1) : undefined;
    return bytes.toString('utf8', 0, end).split('\n');
  }

  /** Ends the stream; a final line without its newline means the artifact was cut short. */
  end(): void {
    if (this.carry) throw corruptLine('the last record is incomplete');
  }
}

/**
 * Splits decompressed chunks into records, a chunk's worth at a time, so readers hand out arrays
 * instead of paying an await per record. UTF-8 never uses byte 0x0A inside a multi-byte
 * character and JSON escapes newlines in strings, so `\n` always ends a record.
 */
export class RecordLineDecoder {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';

  /** Records completed by this chunk. */
  push(chunk: Buffer): ArtifactRecord[] {
    const text = this.partial + this.decoder.write(chunk);
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    return lines.map(decodeRecord);
  }

  /** Ends the stream; a final line without its newline means the artifact was cut short. */
  end(): void {
    const rest = this.partial + this.decoder.end();
    if (rest.length > 0) throw corruptLine('the last record is incomplete');
  }
}

/** Whole encoded lines (encodeRecord's format) with what a manifest needs to know of them. */
export interface EncodedLines {
  bytes: Buffer;
  entries: number;
  tombstones: number;
  /** Highest schemaVersion among the lines (0 for none). */
  maxSchemaVersion: number;
}

const NEWLINE = 0x0a;
const CLOSE_BRACE = 0x7d;
const COLON = 0x3a;
const QUOTE = 0x22;
const LETTER_L = 0x6c;
const SEQUENCE_FIELD = Buffer.from(',"sequence":');
const SCHEMA_FIELD = Buffer.from(',"schemaVersion":');

/**
 * Cuts a stream of already-encoded lines (a capture reading lines the database built) into
 * runs of whole lines, and reads each line's tail — `,"sequence":N,"schemaVersion":M}` — for
 * the counts, without parsing the JSON: a tombstone's valueJson is `null`, so the byte before
 * `,"sequence":` is `l`; a value is a JSON string, so it is `"`. A line not ending that way is an
 * error (the source broke the format).
 */
export class EncodedLineSplitter {
  private carry: Buffer | undefined;

  /** The whole lines completed by `chunk` (undefined when none). */
  push(chunk: Buffer): EncodedLines | undefined {
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    let entries = 0;
    let tombstones = 0;
    let maxSchemaVersion = 0;
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      const tail = readTail(bytes, start, end);
      entries += 1;
      if (tail.tombstone) tombstones += 1;
      if (tail.schemaVersion > maxSchemaVersion) maxSchemaVersion = tail.schemaVersion;
      start = end + 1;
    }
    this.carry = start < bytes.length ? bytes.subarray(start) : undefined;
    if (entries === 0) return undefined;
    return { bytes: bytes.subarray(0, start), entries, tombstones, maxSchemaVersion };
  }

  /** Ends the stream; bytes after the last newline mean it was cut short. */
  end(): void {
    if (this.carry) throw new Error('the encoded lines end inside a line');
  }
}

function brokenLine(): Error {
  return new Error('an encoded line does not end as encodeRecord writes it');
}

function readTail(
  bytes: Buffer,
  start: number,
  end: number,
): { tombstone: boolean; schemaVersion: number } {
  let at = end - 1;
  if (bytes[at] !== CLOSE_BRACE) throw brokenLine();
  let schemaVersion = 0;
  let scale = 1;
  for (at -= 1; at > start && bytes[at]! >= 0x30 && bytes[at]! <= 0x39; at -= 1) {
    schemaVersion += (bytes[at]! - 0x30) * scale;
    scale *= 10;
  }
  if (bytes[at] !== COLON || !endsWith(bytes, at + 1, SCHEMA_FIELD)) throw brokenLine();
  at -= SCHEMA_FIELD.length;
  while (at > start && bytes[at]! >= 0x30 && bytes[at]! <= 0x39) at -= 1;
  if (!endsWith(bytes, at + 1, SEQUENCE_FIELD)) throw brokenLine();
  const before = bytes[at + 1 - SEQUENCE_FIELD.length - 1];
  if (before !== LETTER_L && before !== QUOTE) throw brokenLine();
  return { tombstone: before === LETTER_L, schemaVersion };
}

/** `bytes` holds `field` ending just before `end` (a loop: cheaper than a native call here). */
function endsWith(bytes: Buffer, end: number, field: Buffer): boolean {
  const from = end - field.length;
  if (from < 0) return false;
  for (let i = 0; i < field.length; i++) if (bytes[from + i] !== field[i]) return false;
  return true;
}
