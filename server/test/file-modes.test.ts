import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRecords, tempStore } from '../src/engines/backup/artifacts/test-fixtures.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

/** Every file and directory under `root`, with its permission bits. */
async function modesUnder(root: string): Promise<Array<[string, number, boolean]>> {
  const out: Array<[string, number, boolean]> = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    out.push([path, await modeOf(path), entry.isDirectory()]);
  }
  return out;
}

describe('files the server writes are private to its user', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('store.sqlite (and its WAL files) is 0600 in a 0700 data directory', async () => {
    await t.server.treeData.putEntry('default', 'orders', 'k1', '{"a":1}');
    const dataDir = t.location.dataDir;
    expect(await modeOf(dataDir)).toBe(0o700);
    for (const name of await readdir(dataDir)) {
      if (!name.startsWith('store.sqlite')) continue;
      expect([name, await modeOf(join(dataDir, name))]).toEqual([name, 0o600]);
    }
    expect(await modeOf(join(dataDir, 'store.sqlite'))).toBe(0o600);
  });

  it('artifacts and manifests are 0600 in 0700 directories', async () => {
    const { store, dispose } = await tempStore();
    try {
      const artifacts = await store.writeArtifacts('acme', 'b1', makeRecords(50));
      await store.writeManifest('acme', 'b1', { backupId: 'b1' }, { artifacts });
      const modes = await modesUnder(store.layout.root);
      expect(modes.length).toBeGreaterThan(3);
      for (const [path, mode, isDir] of modes) {
        expect([path, mode]).toEqual([path, isDir ? 0o700 : 0o600]);
      }
    } finally {
      await dispose();
    }
  });
});
