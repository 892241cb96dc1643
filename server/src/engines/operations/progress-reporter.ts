import { performance } from 'node:perf_hooks';
import type { OperationProgress, ProgressUpdate } from './types.js';

/** At most this many progress writes per second per operation: handlers may report per entry. */
const MIN_WRITE_INTERVAL_MS = 250;
const MAX_TEXT = 1000;

/**
 * Keeps the latest progress of a run and writes it at a bounded rate. The last report is not
 * lost: stop() hands it to the final write of the run's outcome.
 */
export class ProgressReporter {
  private current: OperationProgress;
  private dirty = false;
  /**
   * As if written at the start: the claim has just recorded the run, so its first progress
   * write comes an interval later, and a run shorter than that (an incremental backup) writes
   * its progress once, with its outcome, instead of racing its own work for the database.
   */
  private lastWriteAt = performance.now();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly write: (progress: OperationProgress) => Promise<void>,
    initial: OperationProgress,
  ) {
    this.current = { ...initial };
  }

  /** Merges a report into the current progress and schedules a write. */
  report(update: ProgressUpdate): void {
    if (this.stopped) return;
    const count = (value: number | undefined, previous: number) =>
      value !== undefined && Number.isFinite(value) ? Math.max(0, Math.trunc(value)) : previous;
    this.current = {
      done: count(update.done, this.current.done),
      total: count(update.total, this.current.total),
      unit: update.unit === undefined ? this.current.unit : String(update.unit).slice(0, MAX_TEXT),
      message:
        update.message === undefined
          ? this.current.message
          : String(update.message).slice(0, MAX_TEXT),
    };
    this.dirty = true;
    this.schedule();
  }

  /** Stops writing and returns the latest progress, for the run's final write. */
  async stop(): Promise<OperationProgress> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.writing;
    return { ...this.current };
  }

  private schedule(): void {
    if (this.stopped || this.timer || this.writing) return;
    const wait = Math.max(0, this.lastWriteAt + MIN_WRITE_INTERVAL_MS - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  private flush(): void {
    if (!this.dirty || this.stopped) return;
    this.dirty = false;
    this.lastWriteAt = performance.now();
    this.writing = this.write({ ...this.current })
      // A lost progress write is harmless: the next one, or the final one, carries it.
      .catch(() => undefined)
      .finally(() => {
        this.writing = undefined;
        if (this.dirty) this.schedule();
      });
  }
}
