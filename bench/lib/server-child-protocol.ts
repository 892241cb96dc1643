// Messages between the bench and its server in a child process (bench/lib/server-child.ts).

export type ChildCommand = { id: number } & (
  | { type: 'phase-start' }
  | { type: 'phase-end' }
  | { type: 'drop'; physicalTreeId: string }
  | { type: 'delete-entries'; physicalTreeId: string }
  | { type: 'pragmas' }
  | { type: 'statistics-settled' }
  | { type: 'stop' }
);

export type ChildReply =
  | { type: 'ready'; grpcUrl: string; httpUrl: string }
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; error: string };

/** process.memoryUsage() of the server's process, in MB. */
export interface HeapFigures {
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  arrayBuffersMb: number;
}

/** What the server's process saw of a phase on its own loop. */
export interface InsidePhase {
  loopP99Ms: number;
  loopMaxMs: number;
  /** The highest of each figure sampled every 100 ms on the server's loop. */
  peakHeap: HeapFigures;
  endHeap: HeapFigures;
  /** heapUsed after a full collection at the phase's end (NaN without --expose-gc). */
  liveHeapUsedMb: number;
}
