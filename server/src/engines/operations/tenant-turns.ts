/** A queued operation as the fair pick sees it (OperationStore.findQueued). */
export interface QueuedCandidate {
  id: string;
  attempts: number;
  kind: string;
  tenant: string;
  created_at: number | string;
  /** Operations its tenant would run if it started: the first sort key. */
  share: number | string;
}

const MAX_TENANTS = 10_000;

/**
 * Which tenants this worker served least recently. Among queued operations of equal share, the
 * tenant served longest ago goes first: when a flooding tenant's run ends and both tenants then
 * run nothing, the other tenant's capture does not wait behind the flood's next (older)
 * operation, so it waits at most one operation's length. Per process: replicas each keep their
 * own, which is fair enough as each serves the tenants it sees.
 */
export class TenantTurns {
  /** tenant → turn number of its last claim; the map's order is least recently served first. */
  private readonly served = new Map<string, number>();
  private turn = 0;

  /** Notes that a run of `tenant` was just claimed here. */
  servedNow(tenant: string): void {
    this.served.delete(tenant);
    this.served.set(tenant, ++this.turn);
    for (const oldest of this.served.keys()) {
      if (this.served.size <= MAX_TENANTS) break;
      this.served.delete(oldest);
    }
  }

  /** The candidates fairest first: by share, then least recently served, then oldest. */
  order<T extends QueuedCandidate>(candidates: readonly T[]): T[] {
    const last = (tenant: string) => this.served.get(tenant) ?? 0;
    return [...candidates].sort(
      (a, b) =>
        Number(a.share) - Number(b.share) ||
        last(a.tenant) - last(b.tenant) ||
        Number(a.created_at) - Number(b.created_at) ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  }
}
