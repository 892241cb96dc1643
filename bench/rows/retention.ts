// Rows 14-15 (backup lifecycle): a retention preview over one scope of a large catalog against
// the 1 s target, and the backups a retention apply deletes per second (target ≥ 200/s) from
// each artifact store the project has: a directory, and S3 (a real `rclone serve s3`).
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { createClient } from '@connectrpc/connect';
import { BackupLifecycleService, RetentionAction, StoreOperationState } from '@store/contract';
import type { BackupManifestDoc } from '../../server/src/engines/backup/backup-types.js';
import { rowOfManifest } from '../../server/src/engines/backup/catalog/catalog-entry.js';
import { backupRowValues } from '../../server/src/storage/backup/backup-store.js';
import type { Dialect } from '../../server/src/storage/database.js';
import { startTestS3Server } from '../../server/test/support/s3-server.js';
import { startBenchServer, TENANT, type BenchServer } from '../lib/bench-server.js';
import { openRawDb, type RawDb } from '../lib/raw-db.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';

const HOUR = 3_600_000;
const BASE_TIME = Date.UTC(2015, 0, 1);

/** Backup `i` of a scope: hourly, a full every 24th, the rest chained incrementals. */
function manifestOf(tree: string, i: number): BackupManifestDoc {
  const createdAt = BASE_TIME + i * HOUR;
  const id = (n: number) => `bk_ret_${tree}_${String(n).padStart(8, '0')}`;
  return {
    backupId: id(i),
    tenant: TENANT,
    name: `${tree} ${i}`,
    kind: i % 24 === 0 ? 'FULL' : 'INCREMENTAL',
    treeName: tree,
    keyPrefix: null,
    baseBackupId: i % 24 === 0 ? null : id(i - 1),
    setId: null,
    physicalTreeId: `pt_${tree}`,
    createdAt,
    completedAt: createdAt + 500,
    fromSequence: i,
    toSequence: i + 1,
    entryCount: 10,
    tombstoneCount: 0,
    byteSize: 4_000 + (i % 1000),
    artifacts: [],
    schemaVersion: 0,
    createdBy: 'bench',
    labels: {},
  };
}

async function seedScope(raw: RawDb, tree: string, count: number) {
  for (let start = 0; start < count; start += 20_000) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + 20_000); i++) {
      rows.push(backupRowValues(rowOfManifest(manifestOf(tree, i))));
    }
    await raw.insertRows('backups', rows);
  }
  await raw.exec([{ sql: 'analyze backups', params: [] }]);
}

export async function retentionRows(
  s: BenchServer,
  raw: RawDb,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const lifecycle = createClient(BackupLifecycleService, s.grpc);
  const rows: BenchRow[] = [];

  // Row 14: the preview of a scope holding the whole catalog (daily/weekly/monthly buckets in
  // a zone with daylight saving, so the calendar is not UTC's arithmetic).
  const big = { treeId: 'ret-preview' };
  await seedScope(raw, big.treeId, sizes.retentionCatalog);
  await lifecycle.setRetentionRules({
    scope: big,
    rules: {
      keepLast: 24,
      keepDaily: 14,
      keepWeekly: 8,
      keepMonthly: 24,
      keepYearly: 10,
      timeZone: 'Europe/Berlin',
    },
  });
  log(`seeded ${sizes.retentionCatalog} backups in one scope`);
  const times: number[] = [];
  let deleteCount = 0n;
  for (let i = 0; i < 4; i++) {
    const t0 = performance.now();
    const preview = await lifecycle.previewRetention({ scope: big, pageSize: 500 });
    times.push(performance.now() - t0);
    deleteCount = preview.deleteCount;
  }
  const best = Math.min(...times.slice(1));
  rows.push({
    row: 14,
    name: `retention preview, ${sizes.retentionCatalog.toLocaleString('en-US')} backups`,
    dialect: s.dialect,
    figure: best,
    unit: 'ms',
    detail: `first ${times[0]!.toFixed(0)} ms, ${deleteCount} to delete`,
    baselineName: 'target 1 s',
    baseline: 1000,
    ratio: best / 1000,
    target: { kind: 'max', value: 1 },
  });

  rows.push(await applyRow(s, raw, sizes.retentionApply, 'directory'));
  return rows;
}

/**
 * Row 15 against one artifact store: an apply deleting every backup of a scope but the newest,
 * each with its manifest in that store, through the catalog's delete.
 */
async function applyRow(
  s: BenchServer,
  raw: RawDb,
  count: number,
  store: 'directory' | 'S3',
): Promise<BenchRow> {
  // Row 15: an apply deleting every backup of a scope but the newest chain, each with its
  // manifest in the artifact store, through the catalog's delete.
  const lifecycle = createClient(BackupLifecycleService, s.grpc);
  const small = { treeId: `ret-apply-${store.toLowerCase()}` };
  await seedScope(raw, small.treeId, count);
  // Several manifests written at once: an object store's round trips would make seeding long.
  let next = 0;
  const writer = async () => {
    while (next < count) {
      const manifest = manifestOf(small.treeId, next++);
      await s.t.server.backup.artifacts.writeManifest(TENANT, manifest.backupId, manifest, {
        artifacts: [],
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, writer));
  await lifecycle.setRetentionRules({ scope: small, rules: { keepLast: 1 } });
  const preview = await lifecycle.previewRetention({
    scope: small,
    action: RetentionAction.DELETE,
    pageSize: 1,
  });
  const t0 = performance.now();
  const handle = await lifecycle.startRetentionApply({
    scope: small,
    expectedFingerprint: preview.fingerprint,
  });
  let runMs: number;
  for (;;) {
    const { status } = await lifecycle.getLifecycleOperationStatus({
      operationId: handle.operationId,
    });
    if (status && status.state >= StoreOperationState.SUCCEEDED) {
      if (status.state !== StoreOperationState.SUCCEEDED) {
        throw new Error(`the apply ended ${status.state}: ${status.error?.message}`);
      }
      // The run itself, from the runner's claim to its end: queueing is not deleting.
      runMs = timestampMs(status.finishedAt!) - timestampMs(status.startedAt!);
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const wallSeconds = (performance.now() - t0) / 1000;
  const seconds = Math.max(runMs, 1) / 1000;
  const perSecond = Number(preview.deleteCount) / seconds;
  return {
    row: 15,
    name: `retention apply, ${preview.deleteCount} deletions (${store} store)`,
    dialect: s.dialect,
    figure: perSecond,
    unit: 'backups/s',
    detail: `run ${seconds.toFixed(2)} s, start to end ${wallSeconds.toFixed(2)} s`,
    baselineName: 'target 200/s',
    baseline: 200,
    ratio: perSecond / 200,
    target: { kind: 'min', value: 1 },
  };
}

/** Row 15 on S3: its own server over a real S3 server (rclone), the same database kind. */
export async function retentionApplyS3Row(
  dialect: Dialect,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<BenchRow> {
  const s3 = await startTestS3Server();
  // The server runs in this process: the SDK's provider chain reads the credentials from here.
  process.env.AWS_ACCESS_KEY_ID = s3.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = s3.secretAccessKey;
  try {
    const s = await startBenchServer(dialect, s3.env('bench-retention'));
    const raw = await openRawDb(s.t.location);
    try {
      log(`S3 server at ${s3.endpoint}`);
      return await applyRow(s, raw, sizes.retentionApply, 'S3');
    } finally {
      await raw.close();
      await s.dispose();
    }
  } finally {
    await s3.close();
  }
}
