/** One window of an address's refusals past the limit, for its summary record. */
export interface RefusalSummary {
  clientAddress: string;
  /** Refusals in the window, the ones recorded one by one included. */
  refusals: number;
  /** Refusals answered ResourceExhausted and not recorded one by one. */
  summarised: number;
  windowStart: number;
  windowMs: number;
  limit: number;
}

/** What to do with one refusal: record it, or answer ResourceExhausted and summarise it. */
export type RefusalVerdict =
  | { limited: false }
  | { limited: true; retryAfterSeconds: number; limit: number; windowSeconds: number };

interface Window {
  start: number;
  count: number;
}

/**
 * Refusals of callers with no verified credential, per client address (docs/security.md, "Audit
 * trail limits"): the first `limit` in a fixed window of `windowMs` are recorded one by one;
 * beyond it they are answered ResourceExhausted and the window ends in one summary record. A
 * caller whose credential verifies is never counted here, so others' failures from the same
 * address (a shared NAT, a proxy) cannot lock it out. Counted in this process's memory, at most
 * `maxAddresses` windows (the oldest summarised and dropped first): each replica counts on its own.
 */
export class RefusalLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly clock: () => number;
  private readonly maxAddresses: number;

  constructor(
    private readonly options: {
      /** 0 switches the limit off: every refusal is recorded. */
      limit: number;
      windowMs: number;
      /** Receives each window that went over the limit, once it has ended (or is dropped). */
      onSummary: (summary: RefusalSummary) => void;
      maxAddresses?: number;
      clock?: () => number;
    },
  ) {
    this.clock = options.clock ?? Date.now;
    this.maxAddresses = options.maxAddresses ?? 10_000;
  }

  /** Addresses with a window open (tests, metrics). */
  get size(): number {
    return this.windows.size;
  }

  /** Counts one refusal from the address and says whether it may be recorded. */
  admit(address: string): RefusalVerdict {
    const { limit, windowMs } = this.options;
    if (limit <= 0) return { limited: false };
    const now = this.clock();
    this.closeEnded(now);
    let window = this.windows.get(address);
    if (!window) {
      window = { start: now, count: 0 };
      this.windows.set(address, window);
      this.dropBeyondCap();
    }
    window.count += 1;
    if (window.count <= limit) return { limited: false };
    return {
      limited: true,
      retryAfterSeconds: Math.max(1, Math.ceil((window.start + windowMs - now) / 1000)),
      limit,
      windowSeconds: Math.ceil(windowMs / 1000),
    };
  }

  /** Summarises and forgets the windows that have ended (a timer calls it when calls stop). */
  closeEnded(now = this.clock()): void {
    // Map order is window start order: the ended ones come first.
    for (const [address, window] of this.windows) {
      if (now < window.start + this.options.windowMs) break;
      this.close(address, window, this.options.windowMs);
    }
  }

  /** Summarises every open window as it stands (shutdown). */
  closeAll(): void {
    const now = this.clock();
    for (const [address, window] of this.windows) {
      this.close(address, window, Math.min(this.options.windowMs, now - window.start));
    }
  }

  private dropBeyondCap(): void {
    for (const [address, window] of this.windows) {
      if (this.windows.size <= this.maxAddresses) break;
      this.close(address, window, Math.min(this.options.windowMs, this.clock() - window.start));
    }
  }

  private close(address: string, window: Window, lastedMs: number): void {
    this.windows.delete(address);
    const summarised = window.count - this.options.limit;
    if (summarised <= 0) return;
    this.options.onSummary({
      clientAddress: address,
      refusals: window.count,
      summarised,
      windowStart: window.start,
      windowMs: lastedMs,
      limit: this.options.limit,
    });
  }
}
