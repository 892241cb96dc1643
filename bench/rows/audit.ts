// Row 10 (issue 18): what the audit trail costs a write. 64 concurrent writers put entries through
// the real engine, each put followed by its audit record as the transport makes it (queued into
// the per-turn batch, not awaited), against the same puts with no record, in the same server.
import { TENANT, type BenchServer } from '../lib/bench-server.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';

const ROUNDS = 4;
const WRITERS = 64;

export async function auditRow(s: BenchServer, sizes: Sizes): Promise<BenchRow[]> {
  const { treeData, audit } = s.t.server;
  // Rounds of about half a second to a second. With 50 puts a writer a round had shrunk to
  // ~160 ms as puts got faster, and one hiccup moved the ratio by ±0.06 (issue 17, fourth
  // session: 0.73–0.86 in three runs of the same build); group commit also had less time to
  // reach its steady group size than a sustained load gives it.
  const perWriter = sizes.entries >= 100_000 ? 200 : 5;
  let round = 0;

  async function run(withAudit: boolean): Promise<number> {
    const tree = `bench-audit-${withAudit ? 'on' : 'off'}-${round++}`;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        for (let i = 0; i < perWriter; i++) {
          const key = `w${writer}-${i}`;
          await treeData.putEntry(TENANT, tree, key, `{"n":${i}}`);
          if (withAudit) {
            void audit.record({
              tenant: TENANT,
              subject: 'token:bench',
              service: 'store.data.v1.TreeDataService',
              method: 'PutEntry',
              targetId: tree,
              outcome: 'OK',
              clientAddress: '127.0.0.1',
              detail: '',
            });
          }
        }
      }),
    );
    // The records are part of the cost: the round ends when they are stored.
    await audit.flush();
    return (WRITERS * perWriter) / ((performance.now() - start) / 1000);
  }

  // Alternating, best round each: bursts of other work on a shared machine only slow a round.
  const audited: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // The order swaps each round, so neither side always runs on the fuller WAL.
    if (i % 2 === 0) {
      audited.push(await run(true));
      plain.push(await run(false));
    } else {
      plain.push(await run(false));
      audited.push(await run(true));
    }
  }
  const figure = Math.max(...audited);
  const baseline = Math.max(...plain);
  return [
    {
      row: 10,
      name: `PutEntry with its audit record, ${WRITERS} writers (in process)`,
      dialect: s.dialect,
      figure,
      unit: 'puts/s',
      detail: `best of ${ROUNDS}, ${WRITERS * perWriter} puts a round`,
      baselineName: 'the same puts with no audit record',
      baseline,
      ratio: figure / baseline,
      target: { kind: 'min', value: 0.8 },
    },
  ];
}
