// `node --import tsx bench/digest-hash.ts [--entries=200000] [--rounds=7]`: what the content
// digest's per-entry SHA-256 costs on the capture's thread (issue 37 row 30). Hashes the same
// artifact lines (bench/lib/seed-tree.ts's entries, ≈346 bytes a line, 1 000 lines a run) with
// crypto.hash returning a Buffer (the digest before 2026-11-28) and a 'binary' string (now), and
// through ContentDigest.addEncodedLines; best round of each, alternating. Reported, not asserted.
import { hash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { encodeRecord } from '../server/src/engines/backup/artifacts/ndjson-codec.js';
import { ContentDigest } from '../server/src/engines/backup/capture/content-digest.js';
import { entryKey, entryValue } from './lib/seed-tree.js';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '7' },
  },
});
const entries = Number(values.entries);
const slices: Buffer[] = [];
const runs: Buffer[] = [];
let text = '';
for (let i = 0; i < entries; i++) {
  text += encodeRecord({
    key: entryKey(i),
    valueJson: entryValue(i, 0),
    sequence: i + 1,
    schemaVersion: 0,
  });
  if ((i + 1) % 1000 === 0 || i === entries - 1) {
    runs.push(Buffer.from(text));
    text = '';
  }
}
// The slices the digest hashes: from the key to just before `,"sequence":`.
for (const run of runs) {
  let start = 0;
  for (let end = run.indexOf(10); end !== -1; end = run.indexOf(10, start)) {
    slices.push(run.subarray(start + '{"key":'.length, run.lastIndexOf(',"sequence":', end)));
    start = end + 1;
  }
}
const timed = (work: () => unknown) => {
  const started = performance.now();
  work();
  return performance.now() - started;
};
const best = { buffer: Infinity, binary: Infinity, digest: Infinity };
for (let round = 0; round < Number(values.rounds); round++) {
  best.buffer = Math.min(
    best.buffer,
    timed(() => slices.map((s) => hash('sha256', s, 'buffer'))),
  );
  best.binary = Math.min(
    best.binary,
    timed(() => slices.map((s) => hash('sha256', s, 'binary'))),
  );
  best.digest = Math.min(
    best.digest,
    timed(() => {
      const digest = new ContentDigest();
      for (const run of runs) digest.addEncodedLines(run);
    }),
  );
}
const perEntry = (ms: number) =>
  `${ms.toFixed(0)} ms (${((ms / entries) * 1000).toFixed(2)} µs an entry)`;
console.log(
  `${entries} lines, ${(runs.reduce((n, r) => n + r.length, 0) / entries).toFixed(0)} bytes a line, best of ${values.rounds}:`,
);
console.log(`  crypto.hash → Buffer:          ${perEntry(best.buffer)}`);
console.log(`  crypto.hash → 'binary' string: ${perEntry(best.binary)}`);
console.log(`  ContentDigest.addEncodedLines: ${perEntry(best.digest)} (walk, hash and sum)`);
