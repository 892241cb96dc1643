/**
 * Admission to the validation threads, fair across tenants: at most `threads` calls run at
 * once, and one tenant holds at most max(1, threads - 1) of them, so another tenant always finds
 * a thread within one call's budget. Waiting tenants are served in turn (round robin), each
 * tenant's own calls in arrival order.
 */
export class TenantSlots {
  #running = 0;
  readonly #perTenant = new Map<string, number>();
  // Insertion order is the turn order: a served tenant moves to the back.
  readonly #waiting = new Map<string, Array<() => void>>();
  readonly #perTenantCap: number;

  constructor(private readonly threads: number) {
    this.#perTenantCap = Math.max(1, threads - 1);
  }

  /** Waits for a slot for the tenant; call the returned function to give it back. */
  async acquire(tenant: string): Promise<() => void> {
    if (!this.#canRun(tenant) || this.#waiting.size > 0) {
      await new Promise<void>((resolve) => {
        const queue = this.#waiting.get(tenant) ?? [];
        queue.push(resolve);
        this.#waiting.set(tenant, queue);
        this.#dispatch();
      });
    } else {
      this.#take(tenant);
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running -= 1;
      const held = (this.#perTenant.get(tenant) ?? 1) - 1;
      if (held === 0) this.#perTenant.delete(tenant);
      else this.#perTenant.set(tenant, held);
      this.#dispatch();
    };
  }

  #canRun(tenant: string): boolean {
    return this.#running < this.threads && (this.#perTenant.get(tenant) ?? 0) < this.#perTenantCap;
  }

  #take(tenant: string): void {
    this.#running += 1;
    this.#perTenant.set(tenant, (this.#perTenant.get(tenant) ?? 0) + 1);
  }

  #dispatch(): void {
    let served = true;
    while (served && this.#running < this.threads) {
      served = false;
      for (const [tenant, queue] of this.#waiting) {
        if (!this.#canRun(tenant)) continue;
        const next = queue.shift()!;
        this.#waiting.delete(tenant);
        if (queue.length > 0) this.#waiting.set(tenant, queue);
        this.#take(tenant);
        next();
        served = true;
        break;
      }
    }
  }
}
