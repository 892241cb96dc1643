// `node --import tsx bench/content-digest.ts [--entries=100000] [--rounds=3] [--dialects=sqlite,postgres]`:
// what the content digest (issue 36 bullet 1) costs a capture. Captures the same seeded tree with
// and without the digest, alternating, and reports the best time of each and their ratio, for a
// full capture (each line hashed once as it passes) and for a small incremental (whose digest
// reads the whole scope again: the artifact does not carry the values it replaces). Ratios are
// reported, never asserted (docs/performance.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { DirectoryArtifactStore } from '../server/src/engines/backup/artifacts/index.js';
import {
  captureScope,
  type ScopePlan,
} from '../server/src/engines/backup/capture/capture-scope.js';
import { digestOfTree } from '../server/src/engines/backup/capture/scope-digest.js';
import { withReadSnapshot } from '../server/src/storage/backup/backup-snapshot.js';
import type { Dialect } from '../server/src/storage/database.js';
import { raiseLastSequence } from '../server/src/storage/data/physical-tree-store.js';
import { openTestStorage } from '../server/test/support/test-storage.js';
import { openRawDb } from './lib/raw-db.js';
import { entryKey, entryValue, seedTree } from './lib/seed-tree.js';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '3' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
  },
});
const entries = Number(values.entries);
const rounds = Number(values.rounds);
const TENANT = 'bench';

async function measure(dialect: Dialect): Promise<void> {
  const storage = await openTestStorage(dialect);
  const raw = await openRawDb(storage.location);
  const artifactsDir = mkdtempSync(join(tmpdir(), 'digest-bench-'));
  try {
    const artifacts = new DirectoryArtifactStore(artifactsDir);
    const tree = await seedTree(storage, raw, TENANT, 'big', entries);
    let backups = 0;
    const capture = async (fromSequence: number | null, withoutDigest: boolean) => {
      const plan: ScopePlan = {
        tenant: TENANT,
        backupId: `bk_bench_${backups++}`,
        treeName: 'big',
        keyPrefix: '',
        fromSequence,
        pageSize: 1000,
      };
      const started = performance.now();
      const captured = await withReadSnapshot(storage, (snapshot) =>
        captureScope(snapshot, artifacts, plan, {
          signal: new AbortController().signal,
          onProgress: () => undefined,
          withoutDigest,
        }),
      );
      const ms = performance.now() - started;
      await artifacts.discardBackup(TENANT, plan.backupId);
      return { ms, captured };
    };
    const best = async (fromSequence: number | null) => {
      const times = { with: Infinity, without: Infinity };
      // Alternating, best of each: the machine is shared, so the best round is the least disturbed.
      for (let round = 0; round < rounds; round++) {
        times.without = Math.min(times.without, (await capture(fromSequence, true)).ms);
        times.with = Math.min(times.with, (await capture(fromSequence, false)).ms);
      }
      return times;
    };
    await capture(null, false); // warm-up: caches and JIT
    const full = await best(null);

    // A small incremental: 1 % of the entries changed after the full.
    const changed = Math.max(1, Math.floor(entries / 100));
    const rows = [];
    for (let i = 0; i < changed; i++) {
      rows.push({
        key: entryKey(i * 100),
        valueJson: entryValue(i * 100, 1),
        sequence: entries + i + 1,
      });
    }
    await upsertChanged(raw, tree.physicalTreeId, rows, dialect);
    await raiseLastSequence(storage, tree.physicalTreeId, entries + changed);
    const incremental = await best(entries);

    let digestOnly = Infinity;
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      await digestOfTree(storage, TENANT, 'big');
      digestOnly = Math.min(digestOnly, performance.now() - started);
    }
    const line = (name: string, t: { with: number; without: number }) =>
      `${dialect.padEnd(8)} ${name.padEnd(26)} without ${t.without.toFixed(0).padStart(6)} ms` +
      `  with ${t.with.toFixed(0).padStart(6)} ms  ratio with/without ${(t.with / t.without).toFixed(2)}`;
    console.log(line(`full, ${entries} entries`, full));
    console.log(line(`incremental, ${changed} changed`, incremental));
    console.log(
      `${dialect.padEnd(8)} ${'digest of the tree alone'.padEnd(26)} ${digestOnly.toFixed(0).padStart(6)} ms` +
        `  (${((digestOnly / full.without) * 100).toFixed(0)} % of a full capture without digest)`,
    );
  } finally {
    await raw.close();
    await storage.dispose();
    rmSync(artifactsDir, { recursive: true, force: true });
  }
}

/** Overwrites `rows` in place (same keys, new values and sequences), as writers would. */
async function upsertChanged(
  raw: Awaited<ReturnType<typeof openRawDb>>,
  physicalTreeId: string,
  rows: { key: string; valueJson: string; sequence: number }[],
  dialect: Dialect,
): Promise<void> {
  const p = (n: number) => (dialect === 'postgres' ? `$${n}` : '?');
  await raw.exec(
    rows.map((row) => ({
      sql: `update entries set value_json = ${p(1)}, sequence = ${p(2)} where physical_tree_id = ${p(3)} and key = ${p(4)}`,
      params: [row.valueJson, row.sequence, physicalTreeId, row.key],
    })),
  );
}

for (const dialect of values.dialects.split(',') as Dialect[]) await measure(dialect);
