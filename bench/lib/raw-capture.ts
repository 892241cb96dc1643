// The raw limit of a capture: the same rows read straight from the database, encoded as the same
// NDJSON lines, gzip-compressed (same level, zlib on the libuv pool as in the engine) and
// sha256-hashed, in one process, with no engine, no artifact files and no operation around it.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { encodeRecord } from '../../server/src/engines/backup/artifacts/ndjson-codec.js';
import type { RawDb } from './raw-db.js';

export interface RawCaptureResult {
  entries: number;
  uncompressedBytes: number;
  compressedBytes: number;
  sha256: string;
}

export async function rawCapture(raw: RawDb, physicalTreeId: string): Promise<RawCaptureResult> {
  const gzip = createGzip({ chunkSize: 64 * 1024 });
  const hash = createHash('sha256');
  let compressedBytes = 0;
  gzip.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    compressedBytes += chunk.length;
  });
  const ended = once(gzip, 'end');
  let entries = 0;
  let uncompressedBytes = 0;
  await raw.scanEntries(physicalTreeId, async (rows) => {
    let text = '';
    for (const row of rows) {
      text += encodeRecord({
        key: row.key,
        valueJson: row.valueJson,
        sequence: row.sequence,
        schemaVersion: 0,
      });
    }
    const bytes = Buffer.from(text, 'utf8');
    entries += rows.length;
    uncompressedBytes += bytes.length;
    if (!gzip.write(bytes)) await once(gzip, 'drain');
  });
  gzip.end();
  await ended;
  return { entries, uncompressedBytes, compressedBytes, sha256: hash.digest('hex') };
}
