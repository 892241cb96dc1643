/**
 * Cleanups the object store could not do when asked (a capture failed because the server went
 * away; its multipart uploads and finished parts stay until aborted and deleted). Each is tried
 * at once and, while it fails, again with a growing pause, for a bounded time: once the server
 * answers again nothing of the failed capture is left. What outlives the retries (the process
 * ended, the server stayed away) is scrub's: incomplete uploads and orphans older than a day.
 */
export class RetriedCleanup {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly timing = { firstDelayMs: 250, maxDelayMs: 5_000, giveUpAfterMs: 15 * 60_000 },
  ) {}

  /** Runs `task` now; resolves after the first attempt, retrying in the background if it failed. */
  async run(task: () => Promise<void>): Promise<void> {
    try {
      await task();
      return;
    } catch {
      // Retried below; the caller's own error is what it reports.
    }
    const retrying = this.retry(task);
    this.running.add(retrying);
    void retrying.finally(() => this.running.delete(retrying));
  }

  /** Resolves once no cleanup is pending (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private async retry(task: () => Promise<void>): Promise<void> {
    const deadline = Date.now() + this.timing.giveUpAfterMs;
    for (let delay = this.timing.firstDelayMs; Date.now() < deadline;) {
      // Unref'd: a pending cleanup never keeps a stopping server alive.
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      try {
        await task();
        return;
      } catch {
        delay = Math.min(delay * 2, this.timing.maxDelayMs);
      }
    }
  }
}
