import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DirectoryArtifactStore } from './directory-artifact-store.js';
import { canonicalJson } from '../../data/canonical-json.js';
import { MANIFEST_VERSION } from './manifest-file.js';
import { codeOf, makeRecords, tempStore } from './test-fixtures.js';

let store: DirectoryArtifactStore;
let dispose: () => Promise<void>;
beforeEach(async () => ({ store, dispose } = await tempStore()));
afterEach(() => dispose());

const manifestOf = (backupId: string) => ({
  backupId,
  kind: 'FULL',
  treeId: 'orders',
  entryCount: 42,
  labels: { env: 'prod', '10': 'ten', '2': 'two', ключ: 'значение' },
  artifacts: [{ artifactId: 'part-00001', byteSize: 123, sha256: 'ab'.repeat(32) }],
});
const manifestPath = (tenant: string, backupId: string) =>
  store.layout.manifestPath(tenant, backupId);

/** Replaces the first occurrence of `from` in a manifest file with `to` (same length). */
async function tamper(tenant: string, backupId: string, from: string, to: string): Promise<void> {
  const text = await readFile(manifestPath(tenant, backupId), 'utf8');
  expect(text.includes(from)).toBe(true);
  await writeFile(manifestPath(tenant, backupId), text.replace(from, to));
}

describe('manifest files', () => {
  it('round-trips the caller manifest with a version and a sha256 of its canonical content', async () => {
    const manifest = manifestOf('b1');
    const written = await store.writeManifest('acme', 'b1', manifest);
    const expectedSha = createHash('sha256')
      .update(canonicalJson({ manifestVersion: MANIFEST_VERSION, manifest }))
      .digest('hex');
    expect(written).toEqual({ manifestVersion: MANIFEST_VERSION, sha256: expectedSha, manifest });
    expect(await store.readManifest('acme', 'b1')).toEqual(written);
    // Atomic write: nothing but the manifest itself is left in the directory.
    expect(await readdir(store.layout.backupDir('acme', 'b1'))).toEqual(['manifest.json']);
  });

  it('is data_loss when a byte of the manifest content was tampered with', async () => {
    await store.writeManifest('acme', 'b1', manifestOf('b1'));
    await tamper('acme', 'b1', '"entryCount":42', '"entryCount":43');
    expect(await codeOf(store.readManifest('acme', 'b1'))).toBe('data_loss');
  });

  it('is data_loss when the manifest is not JSON any more', async () => {
    await store.writeManifest('acme', 'b1', manifestOf('b1'));
    await tamper('acme', 'b1', '{', '[');
    expect(await codeOf(store.readManifest('acme', 'b1'))).toBe('data_loss');
  });

  it('is not_found when the backup has no manifest', async () => {
    expect(await codeOf(store.readManifest('acme', 'nope'))).toBe('not_found');
  });

  it('refuses to write a manifest before its artifacts exist at their recorded size', async () => {
    const artifacts = await store.writeArtifacts('acme', 'b1', makeRecords(10));
    const ok = store.writeManifest('acme', 'b1', manifestOf('b1'), { artifacts });
    expect(await codeOf(ok)).toBe('resolved');
    const wrongSize = [{ artifactId: 'part-00001', byteSize: 1 }];
    const early = store.writeManifest('acme', 'b2', manifestOf('b2'), { artifacts: wrongSize });
    expect(await codeOf(early)).toBe('failed_precondition');
  });

  it('lists good manifests and reports corrupt ones, skipping directories without a manifest', async () => {
    await store.writeManifest('acme', 'good-1', manifestOf('good-1'));
    await store.writeManifest('acme', 'tampered', manifestOf('tampered'));
    await tamper('acme', 'tampered', '"treeId":"orders"', '"treeId":"ordErs"');
    await store.writeManifest('acme', 'garbled', manifestOf('garbled'));
    await writeFile(manifestPath('acme', 'garbled'), 'not json at all');
    await store.writeManifest('globex', 'good-2', manifestOf('good-2'));
    await mkdir(store.layout.backupDir('acme', 'no-manifest-yet'), { recursive: true });

    const all = await store.listManifests();
    expect(all.manifests.map((m) => `${m.tenant}/${m.backupId}`)).toEqual([
      'acme/good-1',
      'globex/good-2',
    ]);
    expect(all.manifests[0]?.manifest).toEqual(manifestOf('good-1'));
    expect(all.unreadable.map((u) => [u.backupId, u.problem])).toEqual([
      ['garbled', 'corrupt'],
      ['tampered', 'checksum_mismatch'],
    ]);

    const globex = await store.listManifests('globex');
    expect(globex.manifests.map((m) => m.backupId)).toEqual(['good-2']);
    expect(globex.unreadable).toEqual([]);
  });

  it('lists nothing when the artifact root does not exist yet', async () => {
    expect(await store.listManifests()).toEqual({ manifests: [], unreadable: [] });
  });
});
