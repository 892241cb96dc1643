// Issue 37, bullet 5: the console's Export streams to a file the admin picks (File System Access
// API) in bounded windows, checks the SHA-256 before calling it good, and tells the admin to
// delete the file when the export did not produce the artifact. The picker is answered with a
// real OPFS file (support/save-file.ts), so real bytes go through the real writable stream.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, signInWithToken, test, type StoreApi } from './support/fixtures';
import { opfsFile, pickerIntoOpfs, releaseWrites } from './support/save-file';

const TREE = 'exported';

/**
 * A one-artifact backup of ~2.4 MB: random base64 barely compresses, so the file is written in
 * several of the console's 1 MiB windows.
 */
async function bigBackup(
  api: StoreApi,
): Promise<{ backupId: string; artifactId: string; sha256: string; bytes: number }> {
  const entries = Array.from({ length: 2_400 }, (_, i) => ({
    key: `row-${String(i).padStart(5, '0')}`,
    valueJson: JSON.stringify({ i, pad: randomBytes(1_000).toString('base64') }),
  }));
  for (let at = 0; at < entries.length; at += 600)
    await api.data.putEntries({ treeId: TREE, entries: entries.slice(at, at + 600) });
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking form seeds in one call
  const { backupId } = await api.backup.createBackup({ name: 'to disk', scope: { treeId: TREE } });
  const artifact = (await api.backup.describeBackup({ backupId })).manifest?.artifacts[0];
  if (!artifact) throw new Error('the backup holds no artifact');
  return {
    backupId,
    artifactId: artifact.artifactId,
    sha256: artifact.sha256,
    bytes: Number(artifact.byteSize),
  };
}

/** Flips one byte in the middle of a stored artifact (E2E_ARTIFACT_DIR: <tenant>/<backup>/). */
function flipOneByte(tenant: string, backupId: string, artifactId: string): void {
  const dataDir = process.env.E2E_DATA_DIR;
  const artifactDir = process.env.E2E_ARTIFACT_DIR ?? (dataDir && join(dataDir, 'artifacts'));
  if (!artifactDir) throw new Error('E2E_ARTIFACT_DIR is not set: this test corrupts a file');
  const path = join(artifactDir, tenant, backupId, `${artifactId}.ndjson.gz`);
  const bytes = readFileSync(path);
  const middle = Math.floor(bytes.length / 2);
  bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
  writeFileSync(path, bytes);
}

const fileName = (backupId: string, artifactId: string) => `${backupId}-${artifactId}.ndjson.gz`;

test.describe('export to a picked file', () => {
  test('the artifact is written to the picked file, which holds the manifest’s SHA-256', async ({
    page,
    tenant,
  }) => {
    const backup = await bigBackup(tenant.api);
    expect(backup.bytes).toBeGreaterThan(2 * 1024 * 1024);
    await pickerIntoOpfs(page);
    await signInWithToken(page, tenant.admin.token);
    await page.goto(`/backups/${encodeURIComponent(backup.backupId)}`);
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.getByRole('button', { name: `Export ${backup.artifactId}` }).click();
    await expect(page.getByText(/SHA-256 verified against the manifest/)).toBeVisible();
    await expect(page.getByText(fileName(backup.backupId, backup.artifactId))).toBeVisible();

    const written = await opfsFile(page, fileName(backup.backupId, backup.artifactId));
    expect(written?.length).toBe(backup.bytes);
    expect(createHash('sha256').update(written!).digest('hex')).toBe(backup.sha256);
    // Straight to the file: nothing went through the browser's download manager.
    expect(downloads).toBe(0);
    // The SHA-256 ran in WebAssembly, which the console's CSP lets its pages compile (refused,
    // the console would fall back to the slower JavaScript hash without a word).
    const compiled = await page.evaluate(() =>
      WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
        () => 'compiled',
        (error: unknown) => String(error),
      ),
    );
    expect(compiled).toBe('compiled');
  });

  test('an artifact damaged on disk: the export fails and the admin is told to delete the file', async ({
    page,
    tenant,
  }) => {
    const backup = await bigBackup(tenant.api);
    flipOneByte(tenant.name, backup.backupId, backup.artifactId);
    await pickerIntoOpfs(page);
    await signInWithToken(page, tenant.admin.token);
    await page.goto(`/backups/${encodeURIComponent(backup.backupId)}`);

    await page.getByRole('button', { name: `Export ${backup.artifactId}` }).click();
    const name = fileName(backup.backupId, backup.artifactId);
    await expect(page.getByText('Export failed')).toBeVisible();
    await expect(page.getByText(/Stored data is damaged or missing/).first()).toBeVisible();
    await expect(page.getByText(`Delete ${name}`)).toBeVisible();
    await expect(page.getByText(/did not finish, so that file is not a copy of it/)).toBeVisible();
    // The writable was aborted: Chromium drops its temporary copy, the picked file stays empty.
    expect((await opfsFile(page, name))?.length).toBe(0);
    await expect(page.getByText(/SHA-256 verified/)).toHaveCount(0);
  });

  test('Cancel export stops the stream and aborts the file', async ({ page, tenant }) => {
    const backup = await bigBackup(tenant.api);
    await pickerIntoOpfs(page, { holdWrites: true });
    await signInWithToken(page, tenant.admin.token);
    await page.goto(`/backups/${encodeURIComponent(backup.backupId)}`);

    await page.getByRole('button', { name: `Export ${backup.artifactId}` }).click();
    await expect(
      page.getByRole('progressbar', { name: `Export of ${backup.artifactId}` }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Cancel export' }).click();
    await releaseWrites(page);
    const name = fileName(backup.backupId, backup.artifactId);
    await expect(page.getByText(`Export of ${backup.artifactId} cancelled`)).toBeVisible();
    await expect(page.getByText(`Delete ${name}: it holds no copy of the artifact.`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel export' })).toHaveCount(0);
    expect((await opfsFile(page, name))?.length).toBe(0);
    await expect(page.getByText('Export failed')).toHaveCount(0);
  });
});
