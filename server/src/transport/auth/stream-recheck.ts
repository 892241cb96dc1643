/**
 * A response stream that re-checks the caller's credential while it is open. Streams
 * (StreamBackups, StreamDeadLetters, ExportArtifact) can run for hours; checking only when they
 * start let one outlive a revoked or expired token. `recheck` runs every `intervalMs` — while
 * messages flow and while the stream waits for the next one — and its throw (Unauthenticated)
 * ends the stream. No message is passed on once `intervalMs` have gone by since the last check
 * that succeeded.
 */
export async function* recheckWhileOpen<T>(
  source: AsyncIterable<T>,
  recheck: () => Promise<unknown>,
  intervalMs: number,
  signal: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  const watch = new CredentialWatch(recheck, intervalMs, signal);
  try {
    for (;;) {
      const result = await watch.unlessRefused(iterator.next());
      if (result.done) return;
      // The only per-message cost: a clock read (the timer alone could fire late on a busy loop).
      if (watch.isDue()) await watch.check();
      yield result.value;
    }
  } finally {
    watch.stop();
    // Not awaited: a source busy in its own await (waiting for something to send) would hold
    // the refusal back until then. It is told to stop, and the call's signal ends its wait.
    void iterator.return?.()?.catch(() => undefined);
  }
}

/**
 * One stream's credential checks: a single timer re-checks at the cadence (a stream waiting for
 * its next message is ended by it), and a check that fails wakes the stream's pending read. A
 * timer, an AbortController and a DOMException per message cost ~16 % of the server's CPU on
 * ExportArtifact; this keeps one timer for the whole stream.
 */
class CredentialWatch {
  private dueAt: number;
  private inFlight: Promise<void> | undefined;
  private refusal: { error: unknown } | undefined;
  /** Rejects the read the stream is waiting for, when a check fails meanwhile. */
  private interrupt: ((error: unknown) => void) | undefined;
  private stopped = false;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly recheck: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly signal: AbortSignal,
  ) {
    this.dueAt = performance.now() + intervalMs;
    if (signal.aborted) return;
    // The call has ended (or was cancelled): the source finishes its own way, unchecked.
    signal.addEventListener('abort', this.stop, { once: true });
    this.timer = setTimeout(this.onTimer, intervalMs);
    // The call's socket keeps the process alive, not this timer.
    this.timer.unref();
  }

  isDue(): boolean {
    return this.refusal !== undefined || performance.now() >= this.dueAt;
  }

  /** Runs a check, or joins the one in flight; rejects once a check has failed. */
  check(): Promise<void> {
    if (this.refusal) return Promise.reject(this.refusal.error);
    this.inFlight ??= this.recheck().then(
      () => {
        this.inFlight = undefined;
        this.dueAt = performance.now() + this.intervalMs;
        if (!this.stopped) this.timer?.refresh();
      },
      (error: unknown) => {
        this.inFlight = undefined;
        this.refusal = { error };
        this.stop();
        this.interrupt?.(error);
        throw error;
      },
    );
    return this.inFlight;
  }

  /** The source's next result, unless a check fails first. */
  unlessRefused<R>(next: Promise<R>): Promise<R> {
    if (this.refusal) {
      // Abandoned: the stream ends with the refusal; never an unhandled rejection.
      next.catch(() => undefined);
      return Promise.reject(this.refusal.error);
    }
    return new Promise<R>((resolve, reject) => {
      this.interrupt = reject;
      next.then(
        (value) => {
          this.interrupt = undefined;
          resolve(value);
        },
        (error: unknown) => {
          this.interrupt = undefined;
          reject(error);
        },
      );
    });
  }

  readonly stop = (): void => {
    this.stopped = true;
    clearTimeout(this.timer);
    this.signal.removeEventListener('abort', this.stop);
  };

  private readonly onTimer = (): void => {
    // A failure reaches the stream through `interrupt` or its next `isDue`.
    this.check().catch(() => undefined);
  };
}
