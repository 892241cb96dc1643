import { describe, expect, it } from 'vitest';
import { defaultArtifactRoot, partArtifactId } from './artifact-paths.js';
import { codeOf, collect, tempStore } from './test-fixtures.js';

const BAD_IDS = [
  '..',
  '.',
  '',
  '../etc',
  'a/b',
  'a\\b',
  '/abs',
  'x'.repeat(129),
  'sp ace',
  'nul\0',
];
const artifact = { artifactId: 'part-00001', byteSize: 1, sha256: '00' };

describe('artifact paths', () => {
  it('lays files out as <root>/<tenant>/<backupId>/<artifactId>.ndjson.gz and manifest.json', async () => {
    const { store, dispose } = await tempStore();
    expect(store.layout.artifactPath('acme', 'b-1', partArtifactId(1))).toBe(
      `${store.root}/acme/b-1/part-00001.ndjson.gz`,
    );
    expect(store.layout.manifestPath('acme', 'b-1')).toBe(`${store.root}/acme/b-1/manifest.json`);
    expect(defaultArtifactRoot('/var/store')).toBe('/var/store/artifacts');
    await dispose();
  });

  it('rejects path traversal in tenant, backup and artifact ids as invalid_argument', async () => {
    const { store, dispose } = await tempStore();
    try {
      for (const bad of BAD_IDS) {
        const calls: Promise<unknown>[] = [
          store.readManifest(bad, 'b1'),
          store.readManifest('acme', bad),
          store.writeManifest('acme', bad, {}),
          store.verifyArtifact('acme', 'b1', { ...artifact, artifactId: bad }),
          store.deleteBackupFiles(bad, 'b1'),
          store.listStoredBackups(bad),
          store.listManifests(bad),
          collect(store.exportArtifact(bad, 'b1', artifact)),
          collect(store.readArtifactRecords('acme', bad, artifact)),
          Promise.resolve().then(() => store.openWriter(bad, 'b1')),
        ];
        for (const call of calls) expect(await codeOf(call)).toBe('invalid_argument');
      }
      // An artifact id may not pose as a hidden or temp file either.
      const hidden = { ...artifact, artifactId: '.tmp-x' };
      expect(await codeOf(store.verifyArtifact('acme', 'b1', hidden))).toBe('invalid_argument');
    } finally {
      await dispose();
    }
  });

  it('names parts with five-digit sequence numbers', () => {
    expect([1, 42, 99_999].map(partArtifactId)).toEqual(['part-00001', 'part-00042', 'part-99999']);
  });
});
