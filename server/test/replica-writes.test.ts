// Issue 17 (writes): group commit on two replicas. Replica A runs in this process, replica B is
// the shipped server in a process of its own; both write ONE tree of one PostgreSQL schema at
// once, through PutEntry and PutEntries. Each replica groups its own callers; the tree's row lock
// orders the two replicas' group transactions, so sequences stay unique and in commit order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { TreeDataService } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveTree } from '../src/storage/data/tree-store.js';
import { bearerInterceptor } from './support/bearer.js';
import { spawnServer, type ServerProcess } from './support/server-process.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { newStorageLocation } from './support/test-storage.js';

const TOKEN = 'replica-writes-admin-token-0123456789';
const TREE = 'shared-hot';
const CALLERS_PER_REPLICA = 8;
const PUTS_PER_CALLER = 12;
const BATCHES_PER_REPLICA = 3;
const BATCH = 150;

function dataClient(grpcUrl: string) {
  const transport = createGrpcTransport({
    baseUrl: grpcUrl,
    interceptors: [bearerInterceptor(TOKEN)],
  });
  return createClient(TreeDataService, transport);
}

describe('two replicas writing one tree on PostgreSQL', () => {
  const location = newStorageLocation('postgres');
  const replicaBDataDir = mkdtempSync(join(tmpdir(), 'store-replica-b-'));
  let a: TestServer;
  let b: ServerProcess;

  beforeAll(async () => {
    a = await startTestServer('postgres', { STORE_BOOTSTRAP_TOKEN: TOKEN }, location);
    b = await spawnServer({
      STORE_BOOTSTRAP_TOKEN: TOKEN,
      STORE_DATA_DIR: replicaBDataDir,
      DATABASE_URL: location.databaseUrl!,
      STORE_PG_SCHEMA: location.postgresSchema!,
      STORE_HTTP_PORT: '0',
      STORE_GRPC_PORT: '0',
      STORE_LOG_LEVEL: 'warn',
    });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.dispose();
    rmSync(replicaBDataDir, { recursive: true, force: true });
  });

  it('concurrent puts and PutEntries on both replicas get sequences 1…N, each once, as committed', async () => {
    const replicas = [
      { name: 'a', data: dataClient(a.server.grpcUrl) },
      { name: 'b', data: dataClient(b.grpcUrl) },
    ];
    type Written = { caller: string; key: string; value: string; sequence: number };
    const callers = replicas.flatMap(({ name, data }) => [
      ...Array.from({ length: CALLERS_PER_REPLICA }, async (_, c) => {
        const mine: Written[] = [];
        for (let n = 0; n < PUTS_PER_CALLER; n++) {
          const key = `${name}-put-${c}-${n}`;
          const value = JSON.stringify({ c, n, replica: name });
          const { sequence } = await data.putEntry({ treeId: TREE, key, valueJson: value });
          mine.push({ caller: `${name}${c}`, key, value, sequence: Number(sequence) });
        }
        return mine;
      }),
      ...Array.from({ length: BATCHES_PER_REPLICA }, async (_, c) => {
        const mine: Written[] = [];
        for (let n = 0; n < 3; n++) {
          const entries = Array.from({ length: BATCH }, (_, i) => ({
            key: `${name}-batch-${c}-${n}-${i}`,
            valueJson: JSON.stringify({ c, i, n, replica: name }),
          }));
          const { results } = await data.putEntries({ treeId: TREE, entries });
          const sequences = results.map((r) => Number(r.sequence));
          // One call, one transaction, one consecutive range.
          expect(sequences).toEqual(sequences.map((_, i) => sequences[0]! + i));
          entries.forEach((entry, i) =>
            mine.push({
              caller: `${name}-batch${c}`,
              key: entry.key,
              value: entry.valueJson,
              sequence: sequences[i]!,
            }),
          );
        }
        return mine;
      }),
    ]);
    const written = (await Promise.all(callers)).flat();
    const total = 2 * (CALLERS_PER_REPLICA * PUTS_PER_CALLER + BATCHES_PER_REPLICA * 3 * BATCH);
    expect(written).toHaveLength(total);
    // Unique keys: every sequence from 1 to N handed out exactly once, no gaps, no repeats.
    expect(written.map((w) => w.sequence).sort((x, y) => x - y)).toEqual(
      Array.from({ length: total }, (_, i) => i + 1),
    );
    const perCaller = new Map<string, number[]>();
    for (const w of written)
      perCaller.set(w.caller, [...(perCaller.get(w.caller) ?? []), w.sequence]);
    for (const [caller, sequences] of perCaller) {
      expect(
        sequences.every((s, i) => i === 0 || s > sequences[i - 1]!),
        caller,
      ).toBe(true);
    }
    expect((await resolveTree(a.server.storage, 'default', TREE))?.lastSequence).toBe(total);
    // What each replica answered is what is stored, read back through the other replica.
    for (const w of written.filter((_, i) => i % 25 === 0)) {
      const reader = w.key.startsWith('a-') ? replicas[1]! : replicas[0]!;
      const { entry } = await reader.data.getEntry({ treeId: TREE, key: w.key });
      expect(entry?.sequence, w.key).toBe(BigInt(w.sequence));
      expect(entry?.valueJson).toBe(w.value);
    }
  });
});
