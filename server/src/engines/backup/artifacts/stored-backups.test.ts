import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DirectoryArtifactStore } from './directory-artifact-store.js';
import { codeOf, makeRecords, tempStore } from './test-fixtures.js';

let store: DirectoryArtifactStore;
let dispose: () => Promise<void>;
beforeEach(async () => ({ store, dispose } = await tempStore()));
afterEach(() => dispose());

const dir = (backupId: string) => store.layout.backupDir('acme', backupId);

describe('listStoredBackups', () => {
  it('shows a crashed capture: its leftover temp file, its finished parts and no manifest', async () => {
    await store.writeArtifacts('acme', 'crashed', makeRecords(30), { maxEntriesPerArtifact: 20 });
    // What a process killed mid-write leaves: a temp file that never got renamed.
    await writeFile(join(dir('crashed'), '.tmp-part-00003-0a1b2c.ndjson.gz'), 'partial');
    const artifacts = await store.writeArtifacts('acme', 'complete', makeRecords(5));
    await store.writeManifest('acme', 'complete', { ok: true }, { artifacts });
    await writeFile(join(dir('complete'), 'README.txt'), 'operator notes');

    const found = await store.listStoredBackups();
    expect(found.map((b) => b.backupId)).toEqual(['complete', 'crashed']);
    const [complete, crashed] = found;
    expect(crashed).toMatchObject({ tenant: 'acme', hasManifest: false, otherFiles: [] });
    expect(crashed?.artifacts.map((a) => a.artifactId)).toEqual(['part-00001', 'part-00002']);
    expect(crashed?.tempFiles.map((t) => t.name)).toEqual(['.tmp-part-00003-0a1b2c.ndjson.gz']);
    expect(crashed?.tempFiles[0]?.byteSize).toBe('partial'.length);
    expect(complete).toMatchObject({
      hasManifest: true,
      tempFiles: [],
      otherFiles: ['README.txt'],
    });
  });

  it('filters by tenant and is empty for a tenant with nothing stored', async () => {
    await store.writeArtifacts('acme', 'b1', makeRecords(3));
    expect(await store.listStoredBackups('globex')).toEqual([]);
    expect((await store.listStoredBackups('acme')).map((b) => b.backupId)).toEqual(['b1']);
  });
});

describe('deleteBackupFiles', () => {
  it('removes the backup directory and is idempotent', async () => {
    const artifacts = await store.writeArtifacts('acme', 'b1', makeRecords(3));
    await store.writeManifest('acme', 'b1', {}, { artifacts });
    expect(await store.deleteBackupFiles('acme', 'b1')).toBe(true);
    expect(await readdir(store.layout.tenantDir('acme'))).toEqual([]);
    expect(await store.deleteBackupFiles('acme', 'b1')).toBe(false);
  });
});

describe('deleteOrphan', () => {
  it('deletes a leftover temp file or a whole orphan backup directory inside the root', async () => {
    await store.writeArtifacts('acme', 'b1', makeRecords(3));
    const temp = join(dir('b1'), '.tmp-part-00002-ffff.ndjson.gz');
    await writeFile(temp, 'x');
    expect(await store.deleteOrphan(temp)).toBe(true);
    expect(await readdir(dir('b1'))).toEqual(['part-00001.ndjson.gz']);
    expect(await store.deleteOrphan('acme/b1')).toBe(true);
    expect(await store.deleteOrphan('acme/b1')).toBe(false);
  });

  it('refuses the root, a whole tenant, and anything outside the root', async () => {
    await store.writeArtifacts('acme', 'b1', makeRecords(3));
    for (const path of [store.root, 'acme', '..', '../x/y', '/etc/passwd', 'acme/../../x']) {
      expect(await codeOf(store.deleteOrphan(path))).toBe('invalid_argument');
    }
    expect((await store.listStoredBackups()).length).toBe(1);
  });

  it('refuses a path whose parent is a symlink leading outside the root', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'outside-'));
    try {
      await mkdir(join(outside, 'victim'));
      await writeFile(join(outside, 'victim', 'keep.txt'), 'keep');
      await mkdir(store.root, { recursive: true });
      await symlink(outside, join(store.root, 'evil'));
      expect(await codeOf(store.deleteOrphan('evil/victim/keep.txt'))).toBe('invalid_argument');
      expect(await readdir(join(outside, 'victim'))).toEqual(['keep.txt']);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
