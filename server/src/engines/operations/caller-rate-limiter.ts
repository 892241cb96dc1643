/** What a rate-limited call is told when it may not pass now. */
export interface RateRefusal {
  /** Seconds until the caller's next call would pass (at least 1). */
  retryAfterSeconds: number;
}

export interface CallerRateLimiterOptions {
  /** Calls a caller may make per minute, on average; 0 switches the limit off. */
  perMinute: number;
  /** Calls a caller may make at once after a quiet spell (the bucket's size). */
  burst: number;
  /** Callers tracked at most; beyond it the longest-idle are forgotten (their bucket refills). */
  maxCallers?: number;
  clock?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

const DEFAULT_MAX_CALLERS = 100_000;

/**
 * A token bucket per caller (Kafka's client quotas and Temporal's per-namespace limits work
 * alike): each caller holds up to `burst` tokens, refilled at `perMinute` / 60 a second, and a
 * call takes one. Kept in this process's memory, so behind N replicas a caller gets up to N
 * times the rate; the map is bounded by `maxCallers`, dropping the longest-idle callers first
 * (a dropped caller starts again with a full bucket, which only errs towards letting calls pass).
 */
export class CallerRateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly refillPerMs: number;

  constructor(private readonly options: CallerRateLimiterOptions) {
    this.refillPerMs = options.perMinute / 60_000;
  }

  /** Callers tracked now (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  /** The limit in words, for refusals: "60 a minute per caller, 20 at once". */
  describe(): string {
    return `${this.options.perMinute} a minute per caller, ${this.options.burst} at once`;
  }

  /** Takes a token for `caller`; undefined when the call may pass, else when to retry. */
  take(caller: string): RateRefusal | undefined {
    const { perMinute, burst } = this.options;
    if (perMinute <= 0) return undefined;
    const now = (this.options.clock ?? Date.now)();
    const previous = this.buckets.get(caller);
    const tokens = previous
      ? Math.min(burst, previous.tokens + (now - previous.at) * this.refillPerMs)
      : burst;
    // Re-inserted, so the map's order stays least recently seen first.
    this.buckets.delete(caller);
    const passes = tokens >= 1;
    this.buckets.set(caller, { tokens: passes ? tokens - 1 : tokens, at: now });
    this.forgetIdle();
    if (passes) return undefined;
    return { retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.refillPerMs / 1000)) };
  }

  private forgetIdle(): void {
    const max = this.options.maxCallers ?? DEFAULT_MAX_CALLERS;
    for (const caller of this.buckets.keys()) {
      if (this.buckets.size <= max) return;
      this.buckets.delete(caller);
    }
  }
}
