// Round trip: a tree captured, its artifact exported through ExportArtifact, and the artifact's
// lines imported through PutEntries into a new tree (what the console's JSON Lines import does,
// with the same line reader from @store/contract) give the same entries.
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { readImportLine, type ImportLine } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/test-storage.js';
import { startBackupServer, type BackupServer } from './backup-fixture.js';

const ENTRIES = 600;
const PUT_BATCH = 1000;

describe.each(DIALECTS)('an exported artifact imports into a new tree on %s', (dialect) => {
  let s: BackupServer;
  beforeAll(async () => {
    s = await startBackupServer(dialect);
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  /** Every entry of a tree as stored: key → canonical value text. */
  async function entriesOf(treeId: string): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    let pageToken = '';
    do {
      const page = await s.data.listEntries({ treeId, pageSize: 1000, pageToken });
      for (const entry of page.entries) out.set(entry.key, entry.valueJson);
      pageToken = page.nextPageToken;
    } while (pageToken !== '');
    return out;
  }

  it('gives the same keys and values, read in the export-artifact shape', async () => {
    const values: Record<string, unknown> = {
      'unicode-日本': { text: 'ünïcødé 😀', newline: 'a\nb', quote: '"' },
      number: 1.5,
      nothing: null,
      list: [1, 'two', { three: [3] }],
      text: 'plain',
    };
    // Random text barely compresses: the artifact spans several gzip members (~256 KiB each).
    for (let i = 0; i < ENTRIES; i++) {
      values[`k${String(i).padStart(4, '0')}`] = { i, pad: randomBytes(500).toString('hex') };
    }
    await s.data.putEntries({
      treeId: 'source',
      entries: Object.entries(values).map(([key, value]) => ({
        key,
        valueJson: JSON.stringify(value),
      })),
    });
    const handle = await s.backup.startBackup({ name: 'to export', scope: { treeId: 'source' } });
    const status = await s.finish(handle.operationId);
    if (status.result.case !== 'capture') throw new Error(status.error?.message);
    const [artifact] = status.result.value.manifest?.artifacts ?? [];
    if (!artifact) throw new Error('the capture wrote no artifact');

    const chunks: Uint8Array[] = [];
    for await (const chunk of s.backup.exportArtifact({
      backupId: status.result.value.backupId,
      artifactId: artifact.artifactId,
    })) {
      chunks.push(chunk.data);
    }
    const text = gunzipSync(Buffer.concat(chunks)).toString('utf8');
    // Captures compress 256 KiB blocks as gzip members of their own: this one has several.
    expect(text.length).toBeGreaterThan(2 * 256 * 1024);

    const lines = text.split('\n').filter(Boolean);
    const read = lines.map(readImportLine).filter((line): line is ImportLine => line !== null);
    expect(new Set(read.map((line) => line.kind === 'refused' || line.shape))).toEqual(
      new Set(['artifact']),
    );
    const entries = read.flatMap((line) =>
      line.kind === 'entry' ? [{ key: line.key, valueJson: line.valueJson }] : [],
    );
    expect(entries).toHaveLength(ENTRIES + 5);
    for (let at = 0; at < entries.length; at += PUT_BATCH) {
      const { results } = await s.data.putEntries({
        treeId: 'imported',
        entries: entries.slice(at, at + PUT_BATCH),
      });
      expect(results.filter((result) => result.deadLettered)).toEqual([]);
    }

    const source = await entriesOf('source');
    expect(source.size).toBe(ENTRIES + 5);
    expect(await entriesOf('imported')).toEqual(source);
  });
});
