import { hash } from 'node:crypto';

/**
 * The content digest of a scope (issue 36 bullet 1): an order-independent digest of its live
 * entries, so a capture (which reads in key order, or in chunks) and a recompute after a restore
 * (which may read in any order) agree without sorting.
 *
 * Entry hash: SHA-256 of the entry's text as an artifact line carries it between `{"key":` and
 * `,"sequence":` — `<JSON key>,"valueJson":<JSON value>`, JSON strings quoted as JSON.stringify
 * quotes them (both databases quote alike; storage/data/entry-lines.test.ts holds them to it).
 * The JSON quoting frames key and value unambiguously (a JSON string ends at its first unescaped
 * quote), so no length prefix is needed, and it is a byte slice of the line: the capture hashes
 * the bytes it already has, without decoding them.
 * "As stored" means the key and value_json text exactly as the database holds them. Sequence,
 * schema version and timestamps are left out: they say when and by which schema an entry was
 * written, not what the scope holds, and a restore into another tree may stamp them anew.
 *
 * Digest: the sum of the entry hashes (as 256-bit big-endian integers) modulo 2^256, plus the
 * entry count ("sum of hashes"; LtHash's simplest form). Addition is order-independent, and a
 * changed entry moves the sum by new − old, which a later incremental scheme may use.
 */
export const CONTENT_DIGEST_ALGORITHM = 'sum-sha256';

const LIMBS = 8;
const LIMB = 2 ** 32;
const LINE_HEAD = Buffer.from('{"key":');
const SEQUENCE_FIELD = Buffer.from(',"sequence":');
const TOMBSTONE_VALUE = Buffer.from(',"valueJson":null');
const NEWLINE = 0x0a;

/** A parsed `sum-sha256:<64 hex>:<count>`. */
export interface ContentDigestParts {
  sumHex: string;
  count: number;
}

/** Accumulates entry hashes; `toString()` gives the digest as manifests and the catalog store it. */
export class ContentDigest {
  // Big-endian 32-bit limbs: plain numbers add faster than a BigInt per entry.
  private readonly sum = new Array<number>(LIMBS).fill(0);
  private entries = 0;

  get count(): number {
    return this.entries;
  }

  /** Adds one entry by its stored key and value text (a drill reading records does this). */
  addEntry(key: string, valueJson: string): void {
    this.addHash(
      hash('sha256', `${JSON.stringify(key)},"valueJson":${JSON.stringify(valueJson)}`, 'binary'),
    );
  }

  /**
   * Adds one entry by its text as the digest hashes it (`<JSON key>,"valueJson":<JSON value>`,
   * built by the database: a drill's read-back on SQLite).
   */
  addEntryText(text: string): void {
    this.addHash(hash('sha256', text, 'binary'));
  }

  /**
   * Adds `entries` entries whose hashes were summed elsewhere (PostgreSQL, for a drill's
   * read-back) as sums of 16-bit big-endian limbs, limb 0 the most significant: Σ limbSums[i] ·
   * 2^(16·(15−i)) is the plain sum of the hashes, taken here modulo 2^256 like any other.
   */
  addLimbSums(limbSums: readonly bigint[], entries: number): void {
    if (limbSums.length * 16 !== LIMBS * 32) throw new Error('limb sums of 16 bits expected');
    let total = 0n;
    for (const [i, limbSum] of limbSums.entries()) {
      total += limbSum << BigInt(16 * (limbSums.length - 1 - i));
    }
    const other = new ContentDigest();
    for (let i = LIMBS - 1; i >= 0; i--) {
      other.sum[i] = Number(total & 0xffffffffn);
      total >>= 32n;
    }
    other.entries = entries;
    this.addDigest(other);
  }

  /**
   * Adds every live entry among whole encoded artifact lines (encodeRecord's format, each ended
   * by a newline; what the capture's line stream yields). Tombstones are not content: skipped.
   */
  addEncodedLines(bytes: Buffer): void {
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      const tail = bytes.lastIndexOf(SEQUENCE_FIELD, end);
      if (tail < start + LINE_HEAD.length || !startsWith(bytes, start, LINE_HEAD)) {
        throw new Error('an encoded line does not read as encodeRecord writes it');
      }
      if (!endsWith(bytes, tail, TOMBSTONE_VALUE)) {
        this.addHash(hash('sha256', bytes.subarray(start + LINE_HEAD.length, tail), 'binary'));
      }
      start = end + 1;
    }
  }

  /** Adds another digest's entries (the sums of disjoint sets of entries). */
  addDigest(other: ContentDigest): void {
    let carry = 0;
    for (let i = LIMBS - 1; i >= 0; i--) {
      const total = this.sum[i]! + other.sum[i]! + carry;
      this.sum[i] = total % LIMB;
      carry = total >= LIMB ? 1 : 0;
    }
    this.entries += other.entries;
  }

  toString(): string {
    const hex = this.sum.map((limb) => limb.toString(16).padStart(8, '0')).join('');
    return `${CONTENT_DIGEST_ALGORITHM}:${hex}:${this.entries}`;
  }

  /**
   * Adds one entry hash given as a 'binary' (latin1) string, one character a byte: crypto.hash
   * returns that about twice as fast as a Buffer, whose allocation cost more than the SHA-256.
   */
  private addHash(digest: string): void {
    let carry = 0;
    for (let i = LIMBS - 1; i >= 0; i--) {
      const at = i * 4;
      const limb =
        digest.charCodeAt(at) * 0x1000000 +
        ((digest.charCodeAt(at + 1) << 16) |
          (digest.charCodeAt(at + 2) << 8) |
          digest.charCodeAt(at + 3));
      const total = this.sum[i]! + limb + carry;
      this.sum[i] = total % LIMB;
      carry = total >= LIMB ? 1 : 0;
    }
    this.entries += 1;
  }
}

/** The parts of a stored digest; undefined for anything that is not one (or another algorithm). */
export function parseContentDigest(
  text: string | null | undefined,
): ContentDigestParts | undefined {
  const match = /^sum-sha256:([0-9a-f]{64}):(\d+)$/.exec(text ?? '');
  if (!match) return undefined;
  return { sumHex: match[1]!, count: Number(match[2]) };
}

/**
 * The digest in words for a describe response: what it covers, or why there is none (a backup
 * captured before content digests were recorded).
 */
export function describeContentDigest(text: string | null | undefined): string {
  const parts = parseContentDigest(text);
  if (!parts) {
    return 'No content digest: this backup was captured before content digests were recorded.';
  }
  const entries = parts.count === 1 ? '1 entry' : `${parts.count} entries`;
  return `SHA-256 sum over ${entries} of the scope after this backup: ${parts.sumHex.slice(0, 16)}…`;
}

function startsWith(bytes: Buffer, at: number, field: Buffer): boolean {
  for (let i = 0; i < field.length; i++) if (bytes[at + i] !== field[i]) return false;
  return true;
}

function endsWith(bytes: Buffer, end: number, field: Buffer): boolean {
  const from = end - field.length;
  return from >= 0 && startsWith(bytes, from, field);
}
