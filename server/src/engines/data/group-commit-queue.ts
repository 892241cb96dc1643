/** One submitted item's outcome, as the commit function reports it. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

interface Waiting<Item, Result> {
  item: Item;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitQueueOptions<Item, Result> {
  /**
   * Commits a group of items (of one key) together and settles each; it should not throw, but
   * when it does, every item of the group fails with that error. It calls `locked` once it holds
   * what orders commits of its key (the tree's row lock): the next group may then start and
   * prepare, and will queue behind that lock in the database, not behind this whole commit.
   */
  commit: (items: Item[], locked: () => void) => Promise<Settled<Result>[]>;
  /** An item's share of a group (entries, say); a group takes items until `maxWeight`. */
  weight: (item: Item) => number;
  maxWeight: number;
}

/**
 * Group commit: per key (a tree), one commit at a time, and everything that arrived while it
 * ran goes into the next one. A lone caller pays one commit, as before; sixteen concurrent
 * callers pay one or two instead of sixteen. Items are taken whole and in arrival order, so the
 * commit can hand out sequences in that order.
 *
 * The next group does not wait for the whole commit, only until it holds its lock: its reads
 * (the tree, the schema policy) and its request for the lock then overlap the running group's
 * write and flush, and the database hands the lock over the moment that commit ends (issue 17:
 * the work before the lock was half of a 1 000-entry commit's time on PostgreSQL).
 */
export class GroupCommitQueue<Item, Result> {
  private readonly waiting = new Map<string, Waiting<Item, Result>[]>();

  constructor(private readonly options: GroupCommitQueueOptions<Item, Result>) {}

  /** Queues `item` for the next commit of `key`; settles when that commit has. */
  submit(key: string, item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      let queue = this.waiting.get(key);
      if (!queue) {
        queue = [];
        this.waiting.set(key, queue);
        const started = queue;
        // Not at once: callers that arrive in this same turn of the event loop join the first
        // group instead of waiting behind a group of one.
        setImmediate(() => void this.drain(key, started));
      }
      queue.push({ item, resolve, reject });
    });
  }

  private async drain(key: string, queue: Waiting<Item, Result>[]): Promise<void> {
    while (queue.length > 0) {
      const group = this.takeGroup(queue);
      let locked!: () => void;
      const lockHeld = new Promise<void>((resolve) => (locked = resolve));
      await Promise.race([lockHeld, this.commitGroup(group, locked)]);
    }
    // Same synchronous turn as the last emptiness check: nothing can have been queued between.
    this.waiting.delete(key);
  }

  /** Commits `group` and settles each of its callers; never rejects. */
  private async commitGroup(group: Waiting<Item, Result>[], locked: () => void): Promise<void> {
    let settled: Settled<Result>[];
    try {
      settled = await this.options.commit(
        group.map((waiting) => waiting.item),
        locked,
      );
    } catch (error) {
      settled = group.map(() => ({ ok: false, error }));
    }
    group.forEach((waiting, index) => {
      const outcome = settled[index];
      if (outcome?.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome ? outcome.error : new Error('commit settled no outcome'));
    });
  }

  private takeGroup(queue: Waiting<Item, Result>[]): Waiting<Item, Result>[] {
    let weight = 0;
    let count = 0;
    // Always at least one item, however heavy.
    while (count < queue.length) {
      const next = this.options.weight(queue[count]!.item);
      if (count > 0 && weight + next > this.options.maxWeight) break;
      weight += next;
      count += 1;
    }
    return queue.splice(0, count);
  }
}
