// `node --import tsx bench/drill-read-back.ts [--entries=200000] [--rounds=3] [--dialects=sqlite,postgres]`:
// a drill's read-back alone (issue 36), old path against new, alternating, in one run: the
// capture's line stream hashed in this process (digestOfScope, what drills read through before)
// and the drill's own read (digestOfScratchTree: per-entry texts on SQLite, hashes summed inside
// PostgreSQL over two halves). Both must give the same digest; best round of each is printed.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { digestOfScope } from '../server/src/engines/backup/capture/scope-digest.js';
import { digestOfScratchTree } from '../server/src/engines/backup/drills/read-back-digest.js';
import { withReadSnapshot } from '../server/src/storage/backup/backup-snapshot.js';
import type { Dialect } from '../server/src/storage/database.js';
import { openTestStorage } from '../server/test/support/test-storage.js';
import { openRawDb } from './lib/raw-db.js';
import { seedTree } from './lib/seed-tree.js';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '3' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
  },
});
const entries = Number(values.entries);

for (const dialect of values.dialects.split(',') as Dialect[]) {
  const storage = await openTestStorage(dialect);
  const raw = await openRawDb(storage.location);
  try {
    const tree = await seedTree(storage, raw, 'bench', 'big', entries);
    await raw.checkpoint();
    const best = { before: Infinity, after: Infinity };
    const digests = new Set<string>();
    for (let round = 0; round < Number(values.rounds); round++) {
      let started = performance.now();
      const before = await withReadSnapshot(storage, (snapshot) =>
        digestOfScope(snapshot, tree.physicalTreeId, { keyPrefix: '' }),
      );
      best.before = Math.min(best.before, performance.now() - started);
      started = performance.now();
      const after = await withReadSnapshot(storage, (snapshot) =>
        digestOfScratchTree(snapshot, tree.physicalTreeId, '', {
          signal: new AbortController().signal,
          afterChunk: async () => {},
          expectedEntries: entries,
        }),
      );
      best.after = Math.min(best.after, performance.now() - started);
      digests.add(before.toString()).add(after.toString());
    }
    if (digests.size !== 1) throw new Error(`the two reads disagree: ${[...digests].join(' ')}`);
    console.log(
      `${dialect.padEnd(8)} ${entries} entries  capture-path read-back ${best.before.toFixed(0)} ms` +
        `  drill read-back ${best.after.toFixed(0)} ms  ratio ${(best.after / best.before).toFixed(2)}`,
    );
  } finally {
    await raw.close();
    await storage.dispose();
  }
}
