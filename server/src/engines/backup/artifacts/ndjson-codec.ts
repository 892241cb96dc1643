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
