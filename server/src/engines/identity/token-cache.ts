import type { StoredToken } from '../../storage/identity/token-store.js';

/**
 * Stored tokens kept in memory while revocations are watched, so a status poll does not read
 * the token table on every call (on PostgreSQL that read was half of a poll's round trips).
 *
 * It serves nothing unless live: live means every revocation, made anywhere, reaches
 * `revoked` (PostgreSQL NOTIFY). Losing the watch drops everything and serves nothing until
 * the watch is back. A read that began before a revocation arrived is not cached (the epoch
 * check), so a token revoked while its row was being read is never served from memory. Entries
 * also age out after `maxAgeMs`, a bound on staleness should a notification ever go missing
 * without the connection failing.
 */
export class TokenCache {
  private readonly entries = new Map<string, { token: StoredToken; cachedAt: number }>();
  private epoch = 0;
  private live = false;

  constructor(
    private readonly maxAgeMs = 30_000,
    private readonly maxEntries = 10_000,
  ) {}

  get(id: string, now: number): StoredToken | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (now - entry.cachedAt > this.maxAgeMs) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.token;
  }

  /** Taken before reading a token from storage; `put` needs it. */
  ticket(): number {
    return this.epoch;
  }

  /** Keeps a token read from storage, unless a revocation (or a watch change) came since `ticket`. */
  put(token: StoredToken, ticket: number, now: number): void {
    if (!this.live || ticket !== this.epoch) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(token.id, { token, cachedAt: now });
  }

  /** Records a use in the cached copy, so it is not touched again within the granularity. */
  used(id: string, at: number): void {
    const entry = this.entries.get(id);
    if (entry) entry.token = { ...entry.token, lastUsedAt: at };
  }

  revoked(id: string): void {
    this.epoch++;
    this.entries.delete(id);
  }

  setLive(live: boolean): void {
    this.epoch++;
    this.entries.clear();
    this.live = live;
  }
}
