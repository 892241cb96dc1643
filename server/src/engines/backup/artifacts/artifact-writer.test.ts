import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DirectoryArtifactStore } from './directory-artifact-store.js';
import type { ArtifactRecord } from './artifact-types.js';
import { EncodedLineSplitter, encodeRecord } from './ndjson-codec.js';
import { codeOf, collect, inBatches, makeRecords, tempStore } from './test-fixtures.js';

let store: DirectoryArtifactStore;
let dispose: () => Promise<void>;
beforeEach(async () => ({ store, dispose } = await tempStore()));
afterEach(() => dispose());

const dirOf = (backupId: string) => store.layout.backupDir('acme', backupId);
const filesIn = (backupId: string) => readdir(dirOf(backupId)).catch(() => [] as string[]);

describe('artifact writer', () => {
  it('round-trips records with tombstones, unicode keys and large values across several artifacts', async () => {
    const records = makeRecords(2_500, 500);
    const written = await store.writeArtifacts('acme', 'b1', inBatches(records, 333), {
      maxEntriesPerArtifact: 1_000,
    });
    expect(written.map((a) => a.artifactId)).toEqual(['part-00001', 'part-00002', 'part-00003']);
    expect(written.map((a) => a.entryCount)).toEqual([1_000, 1_000, 500]);
    const tombstones = records.filter((r) => r.valueJson === null).length;
    expect(written.reduce((n, a) => n + a.tombstoneCount, 0)).toBe(tombstones);

    const back: ArtifactRecord[] = [];
    for (const artifact of written) {
      back.push(...(await collect(store.readArtifactRecords('acme', 'b1', artifact))));
    }
    expect(back).toEqual(records);
  });

  it('appendEncoded writes pre-encoded lines as they are and rolls between runs of lines', async () => {
    const records = makeRecords(2_500, 500);
    const writer = store.openWriter('acme', 'enc', { maxEntriesPerArtifact: 1_000 });
    const splitter = new EncodedLineSplitter();
    for await (const batch of inBatches(records, 300)) {
      const run = splitter.push(Buffer.from(batch.map(encodeRecord).join('')));
      if (run) await writer.appendEncoded(run);
    }
    splitter.end();
    const written = await writer.finish();
    // Runs of 300 lines: a part closes before the run that would pass 1 000 entries.
    expect(written.map((a) => a.entryCount)).toEqual([900, 900, 700]);
    const tombstones = records.filter((r) => r.valueJson === null).length;
    expect(written.reduce((n, a) => n + a.tombstoneCount, 0)).toBe(tombstones);
    const back: ArtifactRecord[] = [];
    for (const artifact of written) {
      back.push(...(await collect(store.readArtifactRecords('acme', 'enc', artifact))));
    }
    expect(back).toEqual(records);
  });

  it('reports a sha256 and sizes equal to an independent reading of each file', async () => {
    const written = await store.writeArtifacts('acme', 'b1', makeRecords(3_000), {
      maxEntriesPerArtifact: 1_200,
    });
    for (const artifact of written) {
      const bytes = await readFile(store.layout.artifactPath('acme', 'b1', artifact.artifactId));
      expect(artifact.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(artifact.byteSize).toBe(bytes.length);
      const text = gunzipSync(bytes);
      expect(artifact.uncompressedBytes).toBe(text.length);
      // Plain NDJSON inside: one parseable object per line, for `zcat | jq` on a cold backup.
      const lines = text.toString('utf8').trimEnd().split('\n');
      expect(lines).toHaveLength(artifact.entryCount);
      expect(Object.keys(JSON.parse(lines[0] ?? '{}'))).toEqual([
        'key',
        'valueJson',
        'sequence',
        'schemaVersion',
      ]);
    }
  });

  it('rolls exactly before a record would push an artifact past the uncompressed byte limit', async () => {
    const limit = 50_000;
    const records = makeRecords(2_000);
    const written = await store.writeArtifacts('acme', 'b1', records, {
      maxUncompressedBytesPerArtifact: limit,
    });
    expect(written.length).toBeGreaterThan(2);
    let next = 0;
    for (const [i, artifact] of written.entries()) {
      expect(artifact.uncompressedBytes).toBeLessThanOrEqual(limit);
      next += artifact.entryCount;
      const following = records[next];
      // Not too early either: the first record of the next part would not have fitted.
      if (i < written.length - 1 && following) {
        const size = Buffer.byteLength(encodeRecord(following), 'utf8');
        expect(artifact.uncompressedBytes + size).toBeGreaterThan(limit);
      }
    }
    expect(next).toBe(2_000);
  });

  it('gives a record larger than the byte limit an artifact of its own', async () => {
    const big = {
      key: 'big',
      valueJson: JSON.stringify('y'.repeat(10_000)),
      sequence: 2,
      schemaVersion: 1,
    };
    const small = (sequence: number) => ({
      key: `s${sequence}`,
      valueJson: '1',
      sequence,
      schemaVersion: 1,
    });
    const written = await store.writeArtifacts('acme', 'b1', [small(1), big, small(3)], {
      maxUncompressedBytesPerArtifact: 1_000,
    });
    expect(written.map((a) => a.entryCount)).toEqual([1, 1, 1]);
  });

  it('leaves only finished artifacts behind, with no temp files', async () => {
    await store.writeArtifacts('acme', 'b1', makeRecords(10));
    expect(await filesIn('b1')).toEqual(['part-00001.ndjson.gz']);
  });

  it('writes no artifact at all when there are no records', async () => {
    expect(await store.writeArtifacts('acme', 'empty', [])).toEqual([]);
    expect(await filesIn('empty')).toEqual([]);
  });

  it('when aborted mid-write, deletes the temp file and every finished part, then throws cancelled', async () => {
    const controller = new AbortController();
    const records = makeRecords(5_000);
    async function* source() {
      for (let i = 0; i < records.length; i += 250) {
        // Abort once the second artifact is under way: part-00001 is already final by then.
        if (i === 1_500) controller.abort();
        yield records.slice(i, i + 250);
      }
    }
    const run = store.writeArtifacts('acme', 'b1', source(), {
      maxEntriesPerArtifact: 1_000,
      signal: controller.signal,
    });
    expect(await codeOf(run)).toBe('cancelled');
    expect(await filesIn('b1')).toEqual([]);
  });

  it('when aborted between appends, cleans up without another call and later calls throw cancelled', async () => {
    const controller = new AbortController();
    const writer = store.openWriter('acme', 'b1', { signal: controller.signal, batchBytes: 1 });
    await writer.append(makeRecords(100));
    expect((await filesIn('b1')).some((n) => n.startsWith('.tmp-'))).toBe(true);
    controller.abort();
    expect(await codeOf(writer.finish())).toBe('cancelled');
    expect(await filesIn('b1')).toEqual([]);
  });

  it('when aborted while waiting on a slow disk, stops at once and removes the temp file', async () => {
    const controller = new AbortController();
    const slow = () =>
      new Writable({
        highWaterMark: 1,
        write(_chunk, _encoding, callback) {
          controller.abort();
          setTimeout(callback, 50);
        },
      });
    const run = store.writeArtifacts('acme', 'b1', makeRecords(20_000), {
      signal: controller.signal,
      gzipLevel: 0,
      sink: slow,
    });
    expect(await codeOf(run)).toBe('cancelled');
    expect(await filesIn('b1')).toEqual([]);
  });

  it('when the disk is full, throws resource_exhausted and removes the temp file', async () => {
    const full = () =>
      new Writable({
        write(_chunk, _encoding, callback) {
          callback(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
        },
      });
    const run = store.writeArtifacts('acme', 'b1', makeRecords(2_000), { sink: full });
    expect(await codeOf(run)).toBe('resource_exhausted');
    expect(await filesIn('b1')).toEqual([]);
  });

  it('when the record source fails, removes the artifacts already written and rethrows', async () => {
    async function* source() {
      yield makeRecords(1_500);
      throw new Error('database went away');
    }
    const run = store.writeArtifacts('acme', 'b1', source(), { maxEntriesPerArtifact: 1_000 });
    await expect(run).rejects.toThrow('database went away');
    expect(await filesIn('b1')).toEqual([]);
  });

  it('refuses to overwrite an artifact that already exists', async () => {
    await store.writeArtifacts('acme', 'b1', makeRecords(5));
    const before = await readFile(store.layout.artifactPath('acme', 'b1', 'part-00001'));
    expect(await codeOf(store.writeArtifacts('acme', 'b1', makeRecords(9)))).toBe('already_exists');
    expect(await readFile(store.layout.artifactPath('acme', 'b1', 'part-00001'))).toEqual(before);
  });

  it('rejects a record that is not an entry record', async () => {
    const bad = [{ key: 'k', valueJson: '{}', sequence: 1.5, schemaVersion: 1 }];
    await expect(store.writeArtifacts('acme', 'b1', bad)).rejects.toThrow(TypeError);
    expect(await filesIn('b1')).toEqual([]);
  });

  it('keeps a stray file of someone else when cleaning up the backup directory', async () => {
    const controller = new AbortController();
    const writer = store.openWriter('acme', 'b1', { signal: controller.signal });
    await writer.append(makeRecords(10));
    await writeFile(`${dirOf('b1')}/notes.txt`, 'operator notes');
    await writer.abort();
    expect(await filesIn('b1')).toEqual(['notes.txt']);
  });
});
