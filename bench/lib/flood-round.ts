import { runInWorker } from './worker-pool.js';

export interface FloodRoundJob {
  grpcUrl: string;
  /** Tenant a's token, its tree and the operation its pollers read. */
  aToken: string;
  aTree: string;
  pollOperationId: string;
  /** Tenant b's viewers (one token each), empty in a round without the flood. */
  bTokens: string[];
  bBackupId: string;
  bTree: string;
  writers: number;
  pollers: number;
  seconds: number;
  /** After a refusal a flooder tries again this soon, ignoring retry-after. */
  refusedPauseMs: number;
  /** Distinguishes the keys of each round's puts. */
  round: number;
}

export interface FloodRoundResult {
  puts: number;
  polls: number;
  started: number;
  refused: number;
}

/** Runs one round of row 24's callers in the flood worker thread and resolves its counts. */
export function runFloodRound(job: FloodRoundJob): Promise<FloodRoundResult> {
  return runInWorker(new URL('./flood-worker-entry.mjs', import.meta.url), job);
}
