import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  ARTIFACT_STORES,
  closeSharedS3Server,
  storeUnderTest,
} from '../../../../test/support/artifact-stores.js';
import { storagePerTest } from '../../../../test/support/storage-per-test.js';
import { DIALECTS } from '../../../../test/support/test-storage.js';
import { deleteBackupRows, getBackupRow } from '../../../storage/backup/backup-store.js';
import { TreeDataEngine } from '../../data/tree-data-engine.js';
import { OperationRunner } from '../../operations/operation-runner.js';
import type { OperationRecord } from '../../operations/types.js';
import { BackupEngine } from '../backup-engine.js';
import type { CaptureResult, RestoreResult, SetCaptureResult } from '../backup-types.js';
import { parseContentDigest } from './content-digest.js';

const TENANT = 'acme';
const WHO = { tenant: TENANT, createdBy: 'test' };

afterAll(closeSharedS3Server);

// Issue 36 bullet 1: the digest a capture records is the digest of the scope as the database
// holds it at that point, recomputed the way a restore drill will recompute it.
describe.each(DIALECTS)('the content digest of captures on %s', (dialect) => {
  describe.each(ARTIFACT_STORES)('with the %s artifact store', (kind) => {
    const freshStorage = storagePerTest(dialect);
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function setUp() {
      const target = await storeUnderTest(kind);
      const storage = await freshStorage();
      const runner = new OperationRunner({ storage, pollMs: 20 });
      const engine = new BackupEngine({
        storage,
        runner,
        artifacts: target.open(storage.location.dataDir),
        schedulerMinIntervalMs: 1000,
        healthMonitoring: false,
      });
      runner.start();
      cleanups.push(() => runner.stop({ graceMs: 0 }));
      const data = new TreeDataEngine({ storage });
      const finish = async <T>(op: OperationRecord): Promise<T> => {
        for (;;) {
          const now = await runner.get(TENANT, op.id);
          if (now?.finishedAt) {
            if (now.state !== 'SUCCEEDED') throw new Error(`${now.state}: ${now.error?.message}`);
            return now.result as T;
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      const capture = async (treeId: string, baseBackupId?: string) => {
        const op = await engine.startCapture(
          WHO,
          { name: 'd', scope: { treeId }, pageSize: 7, labels: {}, baseBackupId },
          baseBackupId !== undefined,
        );
        const result = await finish<CaptureResult>(op);
        const progress = (await runner.get(TENANT, op.id))?.progress;
        // An incremental's last report is its digest read of the whole scope, at its total.
        if (baseBackupId !== undefined) {
          expect(progress?.message).toMatch(/^content digest: \d+ entries of the scope read$/);
          expect(progress?.done).toBe(progress?.total);
        }
        return result;
      };
      const put = (tree: string, key: string, value: unknown) =>
        data.putEntry(TENANT, tree, key, JSON.stringify(value));
      return { storage, engine, data, finish, capture, put };
    }

    it('a full, each link of a 5-link chain and the chain restored into a new tree all match a recompute from the database', async () => {
      const { storage, engine, data, finish, capture, put } = await setUp();
      // Keys and values whose JSON quoting is not trivial: the digest hashes the quoted forms.
      const awkward = ['quote "q"', 'back\\slash', 'new\nline', 'ключ ✓', 'tab\tand\u0001'];
      for (let i = 0; i < 40; i++) await put('dg', `k${String(i).padStart(3, '0')}`, { i });
      for (const key of awkward) await put('dg', key, { text: `${key} "quoted" \\ é` });

      const full = await capture('dg');
      const fullDigest = full.entry.manifest.contentDigest;
      expect(parseContentDigest(fullDigest)?.count).toBe(45);
      expect(fullDigest).toBe(await engine.contentDigestOfTree(TENANT, 'dg'));
      expect((await getBackupRow(storage, TENANT, full.backupId))?.contentDigest).toBe(fullDigest);

      const links: CaptureResult[] = [full];
      for (let link = 1; link <= 5; link++) {
        // Between links: a new key, an overwrite, a delete, and an overwrite back to an older
        // value (the sum must not care which backup first held it).
        await put('dg', `new-${link}`, { link });
        await put('dg', `k${String(link).padStart(3, '0')}`, { i: link, overwritten: link });
        await data.deleteEntry(TENANT, 'dg', `k${String(10 + link).padStart(3, '0')}`);
        if (link === 3) await data.deleteEntry(TENANT, 'dg', awkward[0]!);
        if (link === 4) await put('dg', awkward[0]!, { text: 'back again' });
        if (link === 5) await put('dg', 'k001', { i: 1 });
        const inc = await capture('dg', links[links.length - 1]!.backupId);
        expect(inc.entry.manifest.kind).toBe('INCREMENTAL');
        const now = await engine.contentDigestOfTree(TENANT, 'dg');
        expect(inc.entry.manifest.contentDigest).toBe(now);
        expect(inc.entry.manifest.contentDigest).not.toBe(
          links[links.length - 1]!.entry.manifest.contentDigest,
        );
        expect((await getBackupRow(storage, TENANT, inc.backupId))?.contentDigest).toBe(now);
        links.push(inc);
      }
      const last = links[links.length - 1]!;
      // 45 + 5 new − 5 deleted − 1 deleted + 1 back.
      expect(parseContentDigest(last.entry.manifest.contentDigest)?.count).toBe(45);

      // Writes after the last link move the live tree's digest, not the recorded one.
      await put('dg', 'after-the-chain', true);
      expect(await engine.contentDigestOfTree(TENANT, 'dg')).not.toBe(
        last.entry.manifest.contentDigest,
      );

      const restored = await finish<RestoreResult>(
        await engine.startRestore(
          WHO,
          {
            backupId: last.backupId,
            targetTreeId: 'dg-restored',
            mode: 'NEW_TREE',
            applyBatchSize: 4,
          },
          false,
        ),
      );
      expect(restored.manifestChain).toHaveLength(6);
      expect(await engine.contentDigestOfTree(TENANT, 'dg-restored')).toBe(
        last.entry.manifest.contentDigest,
      );
      // A restore of a middle link gives back that link's content, not the newest.
      await finish<RestoreResult>(
        await engine.startRestore(
          WHO,
          {
            backupId: links[2]!.backupId,
            targetTreeId: 'dg-middle',
            mode: 'NEW_TREE',
            applyBatchSize: 1000,
          },
          true,
        ),
      );
      expect(await engine.contentDigestOfTree(TENANT, 'dg-middle')).toBe(
        links[2]!.entry.manifest.contentDigest,
      );
    });

    it('a key-prefix scope digests only its entries; each member of a set has its own digest; a rebuilt catalog keeps them', async () => {
      const { storage, engine, finish, capture, put } = await setUp();
      for (let i = 0; i < 12; i++) await put('one', `${i % 2 ? 'odd' : 'even'}/${i}`, i);
      for (let i = 0; i < 5; i++) await put('two', `t${i}`, { i });
      const op = await engine.startCapture(
        WHO,
        { name: 'p', scope: { treeId: 'one', keyPrefix: 'odd/' }, pageSize: 0, labels: {} },
        false,
      );
      const scoped = await finish<CaptureResult>(op);
      expect(parseContentDigest(scoped.entry.manifest.contentDigest)?.count).toBe(6);
      expect(scoped.entry.manifest.contentDigest).toBe(
        await engine.contentDigestOfTree(TENANT, 'one', 'odd/'),
      );
      await put('one', 'even/new', 1);
      const inc = await capture('one', scoped.backupId).catch((e: Error) => e);
      // An incremental needs the same prefix as its base; the scope's digest is unaffected.
      expect(inc).toBeInstanceOf(Error);

      const set = await finish<SetCaptureResult>(
        await engine.startSet(WHO, {
          name: 's',
          scopes: [{ treeId: 'one' }, { treeId: 'two' }],
          crossTreeConsistent: true,
          pageSize: 0,
          labels: {},
        }),
      );
      const [first, second] = set.members;
      expect(first?.entry.manifest.contentDigest).toBe(
        await engine.contentDigestOfTree(TENANT, 'one'),
      );
      expect(second?.entry.manifest.contentDigest).toBe(
        await engine.contentDigestOfTree(TENANT, 'two'),
      );
      expect(parseContentDigest(second?.entry.manifest.contentDigest)?.count).toBe(5);

      // A catalog rebuilt from the manifests alone carries each digest back into its row.
      await deleteBackupRows(storage, TENANT, [scoped.backupId, ...set.setManifest.backupIds]);
      await finish(await engine.startRebuild(WHO));
      for (const captured of [scoped, ...set.members]) {
        expect((await getBackupRow(storage, TENANT, captured.backupId))?.contentDigest).toBe(
          captured.entry.manifest.contentDigest,
        );
      }
    });
  });
});
