// Probes a server from a thread of its own while the bench makes it work (issue 37 bullet 7),
// and measures the server's event-loop delay meanwhile (the server runs in this process).
import { once } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
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
  /** The highest resident set size sampled during the phase (every 100 ms). */
  peakRssMb: number;
  errors: number;
  firstError: string | undefined;
}

export interface Prober {
  /** Runs `work` while probing every `intervalMs`; returns its value and the phase's figures. */
  during<T>(work: () => Promise<T>): Promise<{ value: T; figures: PhaseFigures }>;
  close(): Promise<void>;
}

export async function startProber(target: {
  grpcUrl: string;
  token: string;
  treeId: string;
  intervalMs: number;
}): Promise<Prober> {
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
      // The resolution is the timer's period: a delay of 0 shows as about this much.
      const loop = monitorEventLoopDelay({ resolution: 2 });
      let peakRss = process.memoryUsage.rss();
      const rssTimer = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage.rss());
      }, 100);
      await ask({ type: 'start', ...target });
      loop.enable();
      const t0 = performance.now();
      let value: Awaited<ReturnType<typeof work>>;
      try {
        value = await work();
        // One timer turn after the work, so a block that lasted to its very end is sampled too
        // (a loop blocked for the whole phase records no sample at all without it).
        await new Promise((resolve) => setTimeout(resolve, 5));
      } finally {
        loop.disable();
        clearInterval(rssTimer);
      }
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
          loopP99Ms: loop.percentile(99) / 1e6,
          loopMaxMs: loop.max / 1e6,
          peakRssMb: Math.max(peakRss, process.memoryUsage.rss()) / (1024 * 1024),
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
