import { isTransportFailure } from './network-failure';

/** Whether the server answers, as the console last saw it. */
export interface Connectivity {
  /** When a call first failed to reach the server; null while it answers. */
  unreachableSince: Date | null;
  /** When the next try is due while unreachable (for "retrying in 8 s"); null otherwise. */
  nextTryAt: Date | null;
}

/** Waits between tries while the server does not answer: quick at first, then every 15 s. */
export const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000] as const;

const REACHABLE: Connectivity = { unreachableSince: null, nextTryAt: null };

/**
 * The console's view of the server: fed by every call's outcome (the transport interceptor),
 * it turns unreachable at the first call that got no answer and reachable at the first that
 * did. While unreachable it tries the server itself with backoff (the probe: a cheap anonymous
 * call), since the pages stop polling until it is back (app/create-services pauses queries).
 */
export class ConnectivityStore {
  private state: Connectivity = REACHABLE;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private tries = 0;
  private probe: (() => Promise<unknown>) | undefined;

  constructor(private readonly now: () => Date = () => new Date()) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): Connectivity => this.state;

  get reachable(): boolean {
    return this.state.unreachableSince === null;
  }

  /** The call tried while unreachable; set once the API exists. */
  setProbe(probe: () => Promise<unknown>): void {
    this.probe = probe;
  }

  /** A call's failure: only a failure to reach the server changes anything. */
  readonly reportFailure = (error: unknown): void => {
    if (isTransportFailure(error)) this.markUnreachable();
    // The server answered, even if with a refusal: it is there.
    else this.markReachable();
  };

  /** A call the server answered. */
  readonly reportAnswer = (): void => this.markReachable();

  /** "Retry now": try at once instead of waiting for the next turn. */
  readonly retryNow = (): void => {
    if (this.reachable) return;
    this.schedule(0);
  };

  /** Stops the timer (tests, and a torn-down app). */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private markUnreachable(): void {
    if (!this.reachable) return;
    this.tries = 0;
    this.set({ unreachableSince: this.now(), nextTryAt: null });
    this.scheduleNext();
  }

  private markReachable(): void {
    if (this.reachable) return;
    this.dispose();
    this.set(REACHABLE);
  }

  private scheduleNext(): void {
    const delay = RETRY_DELAYS_MS[Math.min(this.tries, RETRY_DELAYS_MS.length - 1)] as number;
    this.tries += 1;
    this.schedule(delay);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    const at = new Date(this.now().getTime() + delayMs);
    this.set({ unreachableSince: this.state.unreachableSince, nextTryAt: at });
    this.timer = setTimeout(() => void this.tryServer(), delayMs);
  }

  private async tryServer(): Promise<void> {
    this.timer = undefined;
    if (this.reachable || !this.probe) return;
    try {
      await this.probe();
      this.markReachable();
    } catch (error) {
      this.reportFailure(error);
      if (!this.reachable && this.timer === undefined) this.scheduleNext();
    }
  }

  private set(state: Connectivity): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }
}
