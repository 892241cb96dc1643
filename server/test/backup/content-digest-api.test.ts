import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/test-storage.js';
import { startBackupServer, type BackupServer } from './backup-fixture.js';

// Issue 36 bullet 1 over the wire: every response carrying a manifest shows its content digest;
// DescribeBackup says it in words, and says so when a backup (captured before digests) has none.
describe.each(DIALECTS)('content digests in the API on %s', (dialect) => {
  let s: BackupServer;
  beforeAll(async () => {
    s = await startBackupServer(dialect);
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  async function capture(treeId: string) {
    const handle = await s.backup.startBackup({ name: 'full', scope: { treeId } });
    const status = await s.finish(handle.operationId);
    if (status.result.case !== 'capture') throw new Error(status.error?.message ?? 'no capture');
    return status.result.value;
  }

  it('capture result, catalog and DescribeBackup carry the digest the server recomputes from the tree', async () => {
    await s.put('api-digest', { a: 1, b: { nested: 'x "y"' }, c: [1, 2] });
    const captured = await capture('api-digest');
    const digest = captured.manifest?.contentDigest ?? '';
    expect(digest).toMatch(/^sum-sha256:[0-9a-f]{64}:3$/);
    expect(digest).toBe(await s.t.server.backup.contentDigestOfTree('default', 'api-digest'));
    const described = await s.backup.describeBackup({ backupId: captured.backupId });
    expect(described.manifest?.contentDigest).toBe(digest);
    expect(described.contentDigestSummary).toMatch(/^SHA-256 sum over 3 entries of the scope/);
    const page = await s.backup.listBackups({ treeId: 'api-digest' });
    expect(page.backups.map((b) => b.contentDigest)).toEqual([digest]);
  });

  it('a backup captured before content digests reads as having none, in words', async () => {
    await s.put('api-older', { a: 1 });
    const captured = await capture('api-older');
    // The catalog row as a server before this change wrote it: no digest in manifest or column.
    const storage = s.t.server.storage;
    const row = await storage.db
      .selectFrom('backups')
      .select('manifest_json')
      .where('id', '=', captured.backupId)
      .executeTakeFirstOrThrow();
    const { contentDigest: _dropped, ...older } = JSON.parse(row.manifest_json) as Record<
      string,
      unknown
    >;
    await storage.db
      .updateTable('backups')
      .set({ manifest_json: JSON.stringify(older), content_digest: null })
      .where('id', '=', captured.backupId)
      .execute();
    const described = await s.backup.describeBackup({ backupId: captured.backupId });
    expect(described.found).toBe(true);
    expect(described.manifest?.contentDigest).toBe('');
    expect(described.contentDigestSummary).toBe(
      'No content digest: this backup was captured before content digests were recorded.',
    );
  });
});
