// The bench's server alone in a process of its own (rows 29–30): the resident set the parent
// reads from /proc is then the server's (and its validation threads'), not the seeding's, the
// peers' or the prober's. The event-loop delay is measured here, on the server's own loop, and
// sent to the parent at each phase's end. Started by `forkBenchServer` with an IPC channel.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { pino } from 'pino';
import { startStoreServer } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config/load-config.js';
import {
  deletePhysicalTreeEntries,
  dropPhysicalTree,
} from '../../server/src/storage/data/physical-tree-store.js';
import { entryStatisticsSettled } from '../../server/src/storage/data/planner-statistics.js';
import type { TestStorageLocation } from '../../server/test/support/test-storage.js';
import type {
  ChildCommand,
  ChildReply,
  HeapFigures,
  InsidePhase,
} from './server-child-protocol.js';

const send = (reply: ChildReply) => process.send?.(reply);
if (!process.send) throw new Error('server-child runs under fork() only');

const location = JSON.parse(process.env.BENCH_SERVER_LOCATION ?? 'null') as TestStorageLocation;
const extraEnv = JSON.parse(process.env.BENCH_SERVER_ENV ?? '{}') as Record<string, string>;

// The same settings as startTestServer, without its location's removal (the parent owns it).
const config = loadConfig({
  env: {
    STORE_DATA_DIR: location.dataDir,
    ...(location.databaseUrl ? { DATABASE_URL: location.databaseUrl } : {}),
    ...(location.postgresSchema ? { STORE_PG_SCHEMA: location.postgresSchema } : {}),
    STORE_HTTP_PORT: '0',
    STORE_GRPC_PORT: '0',
    STORE_SHUTDOWN_GRACE_MS: '2000',
    STORE_REFUSAL_LIMIT: '10000',
    STORE_METRICS_PORT: 'off',
    ...extraEnv,
  },
});
const server = await startStoreServer(config, pino({ level: 'silent' }));

const heapNow = (): HeapFigures => {
  const m = process.memoryUsage();
  const mb = (n: number) => n / (1024 * 1024);
  return {
    heapUsedMb: mb(m.heapUsed),
    heapTotalMb: mb(m.heapTotal),
    externalMb: mb(m.external),
    arrayBuffersMb: mb(m.arrayBuffers),
  };
};

let phase: { loop: IntervalHistogram; peak: HeapFigures; timer: NodeJS.Timeout } | undefined;

function startPhase(): void {
  const loop = monitorEventLoopDelay({ resolution: 2 });
  const peak = heapNow();
  // Sampled on this loop, so a blocked loop skips samples: the peaks are a lower bound.
  const timer = setInterval(() => {
    const now = heapNow();
    for (const key of Object.keys(peak) as (keyof HeapFigures)[]) {
      peak[key] = Math.max(peak[key], now[key]);
    }
  }, 100);
  loop.enable();
  phase = { loop, peak, timer };
}

async function endPhase(): Promise<InsidePhase> {
  const current = phase;
  if (!current) throw new Error('phase end without start');
  // One timer turn first, so a block that lasted until this message is sampled too.
  await new Promise((resolve) => setTimeout(resolve, 5));
  phase = undefined;
  current.loop.disable();
  clearInterval(current.timer);
  const endHeap = heapNow();
  // What the heap still holds once collected (--expose-gc): a heap that only grows by garbage
  // V8 has not collected yet is not a leak; one whose live size grows with the tree would be.
  // Taken after the phase's figures, so the collection is in none of them.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  return {
    loopP99Ms: current.loop.percentile(99) / 1e6,
    loopMaxMs: current.loop.max / 1e6,
    peakHeap: current.peak,
    endHeap,
    liveHeapUsedMb: gc ? heapNow().heapUsedMb : NaN,
  };
}

async function sqlitePragmas(): Promise<Record<string, number>> {
  if (server.storage.dialect !== 'sqlite') return {};
  const { sql } = await import('kysely');
  const read = async (name: string) => {
    const { rows } = await sql<Record<string, number>>`${sql.raw(`pragma ${name}`)}`.execute(
      server.storage.db,
    );
    return Number(Object.values(rows[0] ?? {})[0]);
  };
  return {
    cache_size: await read('cache_size'),
    mmap_size: await read('mmap_size'),
    page_size: await read('page_size'),
    wal_autocheckpoint: await read('wal_autocheckpoint'),
  };
}

async function handle(command: ChildCommand): Promise<unknown> {
  switch (command.type) {
    case 'phase-start':
      startPhase();
      return null;
    case 'phase-end':
      return await endPhase();
    case 'drop':
      return dropPhysicalTree(server.storage, command.physicalTreeId);
    case 'delete-entries':
      return deletePhysicalTreeEntries(server.storage, command.physicalTreeId);
    case 'pragmas':
      return sqlitePragmas();
    case 'statistics-settled':
      return entryStatisticsSettled(server.storage);
    case 'stop':
      await server.stop();
      return null;
  }
}

process.on('message', (command: ChildCommand) => {
  handle(command).then(
    (value) => {
      send({ type: 'reply', id: command.id, ok: true, value });
      if (command.type === 'stop') process.disconnect();
    },
    (error: unknown) =>
      send({
        type: 'reply',
        id: command.id,
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});

send({ type: 'ready', grpcUrl: server.grpcUrl, httpUrl: server.httpUrl });
