// Row 11 (issue 16): a restore preview of a tree whose live state differs from the backup in 1 %
// of its entries, against the time of that restore itself (target ≤ 0.5 of it). Both run through
// the real server's RPCs on the same tree and backup in this run.
import { createClient } from '@connectrpc/connect';
import { BackupInsightService, StoreOperationState, StoreRestoreMode } from '@store/contract';
import { TENANT, type BenchServer } from '../lib/bench-server.js';
import type { RawDb } from '../lib/raw-db.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { changeEvery, seedTree } from '../lib/seed-tree.js';
import { timed } from '../lib/stats.js';

const TREE = 'bench-preview';

export async function restorePreviewRow(
  s: BenchServer,
  raw: RawDb,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<BenchRow> {
  const insight = createClient(BackupInsightService, s.grpc);
  const tree = await seedTree(s.t.server.storage, raw, TENANT, TREE, sizes.entries);
  const handle = await s.backup.startBackup({ name: 'bench preview', scope: { treeId: TREE } });
  const full = await s.finish(handle.operationId);
  if (full.result.case !== 'capture') throw new Error('the capture gave no result');
  const backupId = full.result.value.backupId;
  const changed = await changeEvery(raw, tree, 100, 1);
  log(`seeded ${sizes.entries} entries, backed up, changed ${changed}`);

  await raw.checkpoint();
  const preview = await timed(async () => {
    const started = await insight.startRestorePreview({ backupId });
    for (;;) {
      const { status } = await insight.getBackupInsightOperationStatus({
        operationId: started.operationId,
      });
      if (status && status.state >= StoreOperationState.SUCCEEDED) {
        if (status.state !== StoreOperationState.SUCCEEDED) {
          throw new Error(`the preview ended ${status.state}: ${status.error?.message}`);
        }
        return (await insight.getBackupComparison({ operationId: started.operationId })).report;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  const counts = preview.value?.counts;
  if (
    Number(counts?.changed) !== changed ||
    Number(counts?.unchanged) !== sizes.entries - changed
  ) {
    throw new Error(
      `the preview counted ${counts?.changed} changed, ${counts?.unchanged} unchanged`,
    );
  }
  log(`preview ${preview.ms.toFixed(0)} ms`);

  await raw.checkpoint();
  const restore = await timed(async () => {
    const started = await s.backup.startRestore({ backupId, mode: StoreRestoreMode.IN_PLACE });
    return s.finish(started.operationId);
  });
  log(`restore ${restore.ms.toFixed(0)} ms`);

  return {
    row: 11,
    name: `restore preview, ${sizes.entries.toLocaleString('en-US')} entries, 1 % changed`,
    dialect: s.dialect,
    figure: preview.ms,
    unit: 'ms',
    detail: `${changed.toLocaleString('en-US')} differences`,
    baselineName: 'the restore itself',
    baseline: restore.ms,
    ratio: preview.ms / restore.ms,
    target: { kind: 'max', value: 0.5 },
  };
}
