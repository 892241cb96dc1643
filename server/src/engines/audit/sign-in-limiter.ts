/**
 * Failed sign-ins per key (issue 18: the client address; issue 33: also an API token's id): after
 * `limit` refused credentials for one key within `windowMs` of the first, every further refused
 * credential for it is answered "retry later" until that window ends (a credential that verifies
 * is never refused: the transport verifies first). Counted in this process's memory: each replica counts on its own, so
 * behind a balancer of N replicas an address gets up to N × limit tries per window.
 */
export class SignInLimiter {
  private readonly failures = new Map<string, { count: number; windowStart: number }>();

  /** Addresses with a window open (for tests and metrics). */
  get size(): number {
    return this.failures.size;
  }

  constructor(
    private readonly options: {
      /** 0 switches the limit off. */
      limit: number;
      windowMs: number;
      clock?: () => number;
      /** Addresses tracked at most; the oldest windows are dropped first beyond it. */
      maxAddresses?: number;
    },
  ) {}

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }

  /** Seconds until the address may try again, or 0 when it may now. */
  retryAfterSeconds(address: string): number {
    if (this.options.limit <= 0) return 0;
    const entry = this.failures.get(address);
    if (!entry) return 0;
    const ends = entry.windowStart + this.options.windowMs;
    const now = this.now();
    if (now >= ends) {
      this.failures.delete(address);
      return 0;
    }
    return entry.count >= this.options.limit ? Math.max(1, Math.ceil((ends - now) / 1000)) : 0;
  }

  /** Counts one refused credential from the address. */
  recordFailure(address: string): void {
    if (this.options.limit <= 0) return;
    const now = this.now();
    const entry = this.failures.get(address);
    if (entry && now < entry.windowStart + this.options.windowMs) {
      entry.count += 1;
      return;
    }
    // Re-inserted so the map's order stays oldest window first.
    this.failures.delete(address);
    this.failures.set(address, { count: 1, windowStart: now });
    // Oldest windows first: drop the ones that ended, then any beyond the cap.
    const max = this.options.maxAddresses ?? 100_000;
    for (const [oldest, window] of this.failures) {
      const ended = now >= window.windowStart + this.options.windowMs;
      if (!ended && this.failures.size <= max) break;
      this.failures.delete(oldest);
    }
  }
}
