import type { Storage } from '../../../storage/database.js';
import {
  pruneOrphanStorage,
  sweepExpiredDifferences,
} from '../../../storage/backup/difference-storage-store.js';

/** How often expired differences are swept (they are unlistable from their expiry on anyway). */
const SWEEP_EVERY_MS = 10 * 60_000;
/** Comparisons swept per query, so one sweep never holds the database long. */
const SWEEP_BATCH = 100;

/**
 * The periodic sweep of preview storage (docs/security.md, "Preview storage"): deletes expired
 * differences, keeping each comparison's record so a listing says when they expired, and
 * everything of comparisons whose operation the runner purged. Every replica may sweep: the
 * deletes are idempotent.
 */
export class DifferenceSweeper {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly clock: () => number,
  ) {}

  /** One sweep now; returns how many comparisons' differences expired and were deleted. */
  async sweep(): Promise<number> {
    let swept = 0;
    for (;;) {
      const count = await sweepExpiredDifferences(this.storage, this.clock(), SWEEP_BATCH);
      swept += count;
      if (count < SWEEP_BATCH) break;
    }
    while ((await pruneOrphanStorage(this.storage, SWEEP_BATCH)) === SWEEP_BATCH);
    return swept;
  }

  /** Sweeps now and every SWEEP_EVERY_MS until stopped. */
  start(onError: (error: unknown) => void): void {
    const run = () => void this.sweep().catch(onError);
    run();
    this.timer = setInterval(run, SWEEP_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
