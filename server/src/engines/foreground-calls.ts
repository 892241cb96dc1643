import { performance } from 'node:perf_hooks';

/** What a tenant's background work reads: how long other tenants' calls were in flight. */
export interface OthersBusy {
  /** Time (ms, monotonic) during which at least one other tenant's call was in flight. */
  othersBusyMs(): number;
  /** How many other tenants' calls began while the tenant was followed. */
  othersBegun(): number;
  /** Stops following the tenant's calls. */
  release(): void;
}

interface Followed {
  /** This tenant's calls in flight that began while it was followed. */
  ownInFlight: number;
  othersBusyMs: number;
  othersBegun: number;
  lastAt: number;
  followers: number;
}

/**
 * Calls a caller is waiting on, counted by the transport (every unary RPC of every server in this
 * process, with the tenant it was made for), so long background work can tell how busy the
 * process is serving other tenants, also while those calls wait on the database rather than run
 * on the event loop (PostgreSQL). A tenant's own calls (its console polling its preview, or its
 * own flood of starts) neither slow its work down nor hide the others' calls.
 */
export class ForegroundCalls {
  #inFlight = 0;
  /** Only the tenants that have background work running are followed. */
  readonly #followed = new Map<string, Followed>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Counts a call from now until the returned function is called (once). */
  begin(tenant?: string): () => void {
    this.#advance();
    this.#inFlight += 1;
    const own = tenant === undefined ? undefined : this.#followed.get(tenant);
    if (own) own.ownInFlight += 1;
    for (const followed of this.#followed.values()) if (followed !== own) followed.othersBegun += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#advance();
      this.#inFlight -= 1;
      if (own) own.ownInFlight -= 1;
    };
  }

  /** Follows a tenant's calls until released, to tell them from the others'. */
  follow(tenant: string): OthersBusy {
    this.#advance();
    let followed = this.#followed.get(tenant);
    if (!followed) {
      followed = {
        ownInFlight: 0,
        othersBusyMs: 0,
        othersBegun: 0,
        lastAt: this.now(),
        followers: 0,
      };
      this.#followed.set(tenant, followed);
    }
    followed.followers += 1;
    const entry = followed;
    let released = false;
    return {
      othersBusyMs: () => {
        this.#advance();
        return entry.othersBusyMs;
      },
      othersBegun: () => entry.othersBegun,
      release: () => {
        if (released) return;
        released = true;
        entry.followers -= 1;
        if (entry.followers === 0 && this.#followed.get(tenant) === entry) {
          this.#followed.delete(tenant);
        }
      },
    };
  }

  /** Adds the time since the last change to each followed tenant for which others were busy. */
  #advance(): void {
    if (this.#followed.size === 0) return;
    const now = this.now();
    for (const followed of this.#followed.values()) {
      if (this.#inFlight - followed.ownInFlight > 0) followed.othersBusyMs += now - followed.lastAt;
      followed.lastAt = now;
    }
  }
}

/** The process's count, shared by its servers (tests start several in one process). */
export const foregroundCalls = new ForegroundCalls();
