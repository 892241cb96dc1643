// Row 6: ListBackups p99 — first page and a deep page of a 1 000 000-row catalog against the first
// page of a 1 000-row one. Keyset paging on (created_at, id) must keep every page equally fast.
import { createClient } from '@connectrpc/connect';
import { BackupControlService } from '@store/contract';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { BackupManifestDoc } from '../../server/src/engines/backup/backup-types.js';
import { rowOfManifest } from '../../server/src/engines/backup/catalog/catalog-entry.js';
import { backupRowValues } from '../../server/src/storage/backup/backup-store.js';
import { TENANT, type BenchServer } from '../lib/bench-server.js';
import type { RawDb } from '../lib/raw-db.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { percentile, since, sorted } from '../lib/stats.js';

const BASE_TIME = 1_600_000_000_000;
const SEED_BATCH = 20_000;

/** The catalog row of backup number `i` (created i seconds after BASE_TIME). */
export function catalogRow(i: number, tenant = TENANT) {
  const createdAt = BASE_TIME + i * 1000;
  const manifest: BackupManifestDoc = {
    backupId: `bk_cat_${String(i).padStart(8, '0')}`,
    tenant,
    name: `nightly ${i}`,
    kind: 'FULL',
    treeName: `tree-${i % 20}`,
    keyPrefix: null,
    baseBackupId: null,
    setId: null,
    physicalTreeId: `pt_cat_${i % 20}`,
    createdAt,
    completedAt: createdAt + 500,
    fromSequence: 0,
    toSequence: i + 1,
    entryCount: 1000 + (i % 97),
    tombstoneCount: 0,
    byteSize: 40_000 + (i % 1000),
    artifacts: [
      {
        artifactId: 'part-00001',
        byteSize: 40_000 + (i % 1000),
        sha256: (i.toString(16).padStart(8, '0') + 'ab').repeat(6).slice(0, 64),
        entryCount: 1000 + (i % 97),
      },
    ],
    schemaVersion: 0,
    createdBy: 'bench',
    labels: { source: 'bench' },
  };
  return backupRowValues(rowOfManifest(manifest));
}

/** Adds catalog rows from..to-1 (not measured). */
export async function seedCatalog(raw: RawDb, from: number, to: number, tenant = TENANT) {
  for (let start = from; start < to; start += SEED_BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(to, start + SEED_BATCH); i++) rows.push(catalogRow(i, tenant));
    await raw.insertRows('backups', rows);
  }
  await raw.exec([{ sql: 'analyze backups', params: [] }]);
  // better-sqlite3 blocks the event loop while it seeds; let the socket events it held back
  // (the server closing idle keep-alive connections) land before the next call picks a socket.
  await new Promise((resolve) => setTimeout(resolve, 200));
}

async function p99Of(samples: number, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await call(); // warm-up
  const latencies: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await call();
    latencies.push(since(t0));
  }
  return percentile(sorted(latencies), 99);
}

export async function catalogRows(s: BenchServer, raw: RawDb, sizes: Sizes): Promise<BenchRow[]> {
  const client = createClient(BackupControlService, s.grpcWeb);
  const firstPage = () =>
    client.listBackups({}).then((page) => {
      if (page.backups.length !== 50) throw new Error(`first page held ${page.backups.length}`);
    });
  /**
   * A page token issued by the server for the row at `depth` (0 = newest): asked for with a
   * created_before filter and page size 1, so the bench needs no knowledge of the token format.
   */
  const tokenAt = async (total: number, depth: number) => {
    const index = total - 1 - depth;
    const page = await client.listBackups({
      pageSize: 1,
      createdBefore: timestampFromMs(BASE_TIME + (index + 1) * 1000),
    });
    if (page.backups[0]?.backupId !== `bk_cat_${String(index).padStart(8, '0')}`) {
      throw new Error('the catalog does not hold the seeded rows');
    }
    return page.nextPageToken;
  };
  const deepPage = (token: string) => () =>
    client.listBackups({ pageToken: token }).then((page) => {
      if (page.backups.length !== 50) throw new Error(`deep page held ${page.backups.length}`);
    });

  const small = sizes.catalogBaselineRows;
  await seedCatalog(raw, 0, small);
  const shallowSmall = await p99Of(sizes.catalogSamples, firstPage);
  const deepSmall = await p99Of(sizes.catalogSamples, deepPage(await tokenAt(small, small - 100)));

  await seedCatalog(raw, small, sizes.catalogRows);
  const total = sizes.catalogRows;
  const shallowLarge = await p99Of(sizes.catalogSamples, firstPage);
  const depth = Math.floor(total * 0.9);
  const deepLarge = await p99Of(sizes.catalogSamples, deepPage(await tokenAt(total, depth)));

  const n = (x: number) => x.toLocaleString('en-US');
  const row = (name: string, figure: number, detail: string): BenchRow => ({
    row: 6,
    name,
    dialect: s.dialect,
    figure,
    unit: 'ms p99',
    detail,
    baselineName: `first page of ${n(small)} rows`,
    baseline: shallowSmall,
    ratio: figure / shallowSmall,
    target: { kind: 'max', value: 2 },
  });
  return [
    row(`ListBackups first page, ${n(total)} rows`, shallowLarge, ''),
    row(
      `ListBackups page at row ${n(depth)} of ${n(total)}`,
      deepLarge,
      `deep page of ${n(small)} rows: ${deepSmall.toFixed(2)} ms`,
    ),
  ];
}
