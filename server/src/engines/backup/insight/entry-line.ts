import { StoreError } from '../../errors.js';
import { decodeRecord } from '../artifacts/index.js';

/**
 * One side's entry of a comparison, kept as its artifact line (encodeRecord's format, without
 * the newline): the backup's line as stored, the live tree's as the database encodes it
 * (storage/data/entry-lines.ts, byte for byte what a capture writes). An unchanged entry has the same
 * line on both sides, so a comparison parses only the lines that differ.
 */
export interface SideEntry {
  key: string;
  line: string;
  /** The line's valueJson is null (a tombstone of an incremental backup). */
  tombstone: boolean;
}

/** A side's value, parsed from its line when it is needed (a difference). */
export interface SideValue {
  valueJson: string;
  schemaVersion: number;
}

const KEY_START = '{"key":"';
const SEQUENCE_FIELD = ',"sequence":';
const SCHEMA_FIELD = ',"schemaVersion":';

function corruptLine(): StoreError {
  return new StoreError('data_loss', 'artifact is corrupt: a line is not an entry record');
}

/**
 * Reads a line's key and whether it is a tombstone, without parsing the JSON: a key holding no
 * escape ends at the first `"` after `{"key":"` (JSON escapes every `"` inside a string);
 * one with an escape is parsed whole. The tail `,"sequence":N,"schemaVersion":M}` follows the
 * value, which is a JSON string (escaped quotes) or `null`, so its last `,"sequence":` is the
 * field. A line not shaped like that is DataLoss.
 */
export function sideEntryOf(line: string): SideEntry {
  if (!line.startsWith(KEY_START)) throw corruptLine();
  const close = line.indexOf('"', KEY_START.length);
  const sequenceAt = line.lastIndexOf(SEQUENCE_FIELD);
  if (close === -1 || sequenceAt <= close || line.charCodeAt(line.length - 1) !== 0x7d) {
    throw corruptLine();
  }
  let key: string;
  const escaped = line.indexOf('\\', KEY_START.length);
  if (escaped !== -1 && escaped < close) key = decodeRecord(line).key;
  else key = line.slice(KEY_START.length, close);
  const before = line.charCodeAt(sequenceAt - 1);
  if (before !== 0x6c && before !== 0x22) throw corruptLine();
  return { key, line, tombstone: before === 0x6c };
}

/**
 * True when two lines record the same value and schema version. Lines equal but for their
 * sequence (a tree restored or rewritten with the same values) are the same; lines that differ
 * otherwise are parsed and compared as values, so an equal value written with other escapes is
 * still the same.
 */
export function sameEntry(a: SideEntry, b: SideEntry): boolean {
  if (a.line === b.line) return true;
  const at = a.line.lastIndexOf(SEQUENCE_FIELD);
  const bt = b.line.lastIndexOf(SEQUENCE_FIELD);
  if (at === bt) {
    const as = a.line.indexOf(SCHEMA_FIELD, at);
    const bs = b.line.indexOf(SCHEMA_FIELD, bt);
    if (
      as !== -1 &&
      bs !== -1 &&
      a.line.slice(as) === b.line.slice(bs) &&
      a.line.slice(0, at) === b.line.slice(0, bt)
    ) {
      return true;
    }
  }
  const x = valueOf(a);
  const y = valueOf(b);
  return x.valueJson === y.valueJson && x.schemaVersion === y.schemaVersion;
}

/** The value of a live entry or a backup's record that is not a tombstone (parsed in full). */
export function valueOf(entry: SideEntry): SideValue {
  const record = decodeRecord(entry.line);
  if (record.valueJson === null) throw corruptLine();
  return { valueJson: record.valueJson, schemaVersion: record.schemaVersion };
}

/**
 * A live entry's line (storage/data/entry-lines.ts, never a tombstone) whose key is read only when it
 * is asked for: a preview compares most live lines whole against the backup's, and an equal line
 * needs no key, which spares the live side a million key strings.
 */
export class LiveEntry implements SideEntry {
  readonly tombstone = false;
  private readKey: string | undefined;

  constructor(readonly line: string) {}

  get key(): string {
    return (this.readKey ??= sideEntryOf(this.line).key);
  }
}

/** Wraps a live line; see `LiveEntry`. */
export function liveEntryOf(line: string): SideEntry {
  return new LiveEntry(line);
}
