// Probes a server from a thread of its own while the bench makes it work (issue 37 bullet 7),
// and measures the server's event-loop delay and resident set meanwhile: in this process when the
// server runs here, or in the server's own process when it is a child (`ServerMeter`).
import { once } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { ProcessMemory } from './child-bench-server.js';
import type { HeapFigures, InsidePhase } from './server-child-protocol.js';
import { percentile, sorted } from './stats.js';

export type ProbeCommand =
  | { type: 'start'; grpcUrl: string; token: string; treeId: string; intervalMs: number }
  | { type: 'stop' };

export interface ProbeResult {
  healthMs: number[];
  listMs: number[];
  errors: number;
  firstError: string | undefined;
}

type Reply =
  { type: 'started' } | { type: 'result'; result: ProbeResult } | { type: 'error'; error: string };

/** What a phase looked like from outside (probes) and inside (event-loop delay, RSS). */
export interface PhaseFigures {
  ms: number;
  probes: number;
  healthP99Ms: number;
  healthMaxMs: number;
  listP99Ms: number;
  listMaxMs: number;
  loopP99Ms: number;
  loopMaxMs: number;
  /**
   * The highest resident set size during the phase: sampled every 100 ms in this process, or
   * (server in a child) the child's VmHWM, reset at the phase's start.
   */
  peakRssMb: number;
  /** Server in a child only: where its memory was (peaks of each, MB). */
  server?: {
    /** The resident set at the phase's start (what an earlier phase left). */
    startRssMb: number;
    peakAnonMb: number;
    peakFileMb: number;
    peakHeap: HeapFigures;
    endHeap: HeapFigures;
    liveHeapUsedMb: number;
  };
  errors: number;
  firstError: string | undefined;
}

export interface Prober {
  /** Runs `work` while probing every `intervalMs`; returns its value and the phase's figures. */
  during<T>(work: () => Promise<T>): Promise<{ value: T; figures: PhaseFigures }>;
  close(): Promise<void>;
}

/** A server in another process: its loop is measured there, its memory read from /proc. */
export interface ServerMeter {
  startPhase(): Promise<void>;
  endPhase(): Promise<InsidePhase>;
  memory(): ProcessMemory;
  resetPeak(): void;
}

/** The server in this process: its loop and resident set are this process's. */
function inProcessMeter(): ServerMeter {
  let loop: ReturnType<typeof monitorEventLoopDelay> | undefined;
  return {
    async startPhase() {
      // The resolution is the timer's period: a delay of 0 shows as about this much.
      loop = monitorEventLoopDelay({ resolution: 2 });
      loop.enable();
    },
    async endPhase() {
      loop?.disable();
      const heap = { heapUsedMb: 0, heapTotalMb: 0, externalMb: 0, arrayBuffersMb: 0 };
      return {
        loopP99Ms: (loop?.percentile(99) ?? NaN) / 1e6,
        loopMaxMs: (loop?.max ?? NaN) / 1e6,
        peakHeap: heap,
        endHeap: heap,
        liveHeapUsedMb: NaN,
      };
    },
    memory: () => {
      const mb = process.memoryUsage.rss() / (1024 * 1024);
      return { rssMb: mb, hwmMb: mb, anonMb: NaN, fileMb: NaN, shmemMb: NaN };
    },
    resetPeak: () => undefined,
  };
}

export async function startProber(
  target: {
    grpcUrl: string;
    token: string;
    treeId: string;
    intervalMs: number;
  },
  /** Where the server runs; default this process. */
  server?: ServerMeter,
): Promise<Prober> {
  const meter = server ?? inProcessMeter();
  const worker = new Worker(new URL('./prober-worker-entry.mjs', import.meta.url));
  const ask = async (command: ProbeCommand): Promise<Reply> => {
    worker.postMessage(command);
    const [reply] = (await once(worker, 'message')) as [Reply];
    if (reply.type === 'error') throw new Error(`prober: ${reply.error}`);
    return reply;
  };
  // The first calls open the connection and warm the code paths: not part of any phase.
  await ask({ type: 'start', ...target });
  await new Promise((resolve) => setTimeout(resolve, 500));
  await ask({ type: 'stop' });
  return {
    async during(work) {
      meter.resetPeak();
      const first = meter.memory();
      const peak = { rss: first.rssMb, anon: first.anonMb, file: first.fileMb };
      const sample = () => {
        const m = meter.memory();
        peak.rss = Math.max(peak.rss, m.rssMb);
        peak.anon = Math.max(peak.anon, m.anonMb);
        peak.file = Math.max(peak.file, m.fileMb);
        return m;
      };
      const rssTimer = setInterval(sample, 100);
      await ask({ type: 'start', ...target });
      await meter.startPhase();
      const t0 = performance.now();
      let value: Awaited<ReturnType<typeof work>>;
      let inside: InsidePhase;
      try {
        value = await work();
        // One timer turn after the work, so a block that lasted to its very end is sampled too
        // (a loop blocked for the whole phase records no sample at all without it).
        await new Promise((resolve) => setTimeout(resolve, 5));
      } finally {
        inside = await meter.endPhase();
        clearInterval(rssTimer);
      }
      const last = sample();
      const ms = performance.now() - t0;
      const reply = await ask({ type: 'stop' });
      if (reply.type !== 'result') throw new Error('prober: no result');
      const { healthMs, listMs, errors, firstError } = reply.result;
      const health = sorted(healthMs);
      const list = sorted(listMs);
      return {
        value,
        figures: {
          ms,
          probes: health.length,
          healthP99Ms: percentile(health, 99),
          healthMaxMs: health.at(-1) ?? NaN,
          listP99Ms: percentile(list, 99),
          listMaxMs: list.at(-1) ?? NaN,
          loopP99Ms: inside.loopP99Ms,
          loopMaxMs: inside.loopMaxMs,
          peakRssMb: Math.max(peak.rss, last.hwmMb),
          ...(server && {
            server: {
              startRssMb: first.rssMb,
              peakAnonMb: peak.anon,
              peakFileMb: peak.file,
              peakHeap: inside.peakHeap,
              endHeap: inside.endHeap,
              liveHeapUsedMb: inside.liveHeapUsedMb,
            },
          }),
          errors,
          firstError,
        },
      };
    },
    async close() {
      await worker.terminate();
    },
  };
}
