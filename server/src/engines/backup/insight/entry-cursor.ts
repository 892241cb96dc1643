import type { SideEntry } from './entry-line.js';

export type { SideEntry } from './entry-line.js';

/**
 * A key-ordered stream of entries read a batch at a time. `advance` returns a promise only when
 * it had to read the next batch, so the comparison pays an await per batch, not per entry (a
 * preview walks a million keys on each side).
 */
export interface EntryCursor {
  /** The entry at the cursor, or undefined once the stream is exhausted. */
  readonly current: SideEntry | undefined;
  /** Moves to the next entry; await the result when it is a promise. */
  advance(): Promise<void> | undefined;
}

/**
 * A cursor over an async iterator of batches: `current` is `batch[index]`. The next batch is
 * asked for as soon as one arrives, so an artifact decompresses (on libuv's threads) or a
 * PostgreSQL page travels while this batch is compared. A comparison reads every source to its
 * end (a cursor that stopped early would skip the checksum check at the end of an artifact).
 */
export class BatchCursor<T> {
  private batch: readonly T[] = [];
  private index = 0;
  private done = false;
  /** Batches asked for and not yet used, oldest first. */
  private readonly ahead: Promise<IteratorResult<readonly T[]>>[] = [];

  constructor(
    private readonly source: AsyncIterator<readonly T[]>,
    /** How many batches to ask for ahead of the one in use. */
    private readonly readAhead = 1,
  ) {}

  /** The item at the cursor, or undefined at the end. */
  get current(): T | undefined {
    return this.index < this.batch.length ? this.batch[this.index] : undefined;
  }

  /** Positions the cursor on the first item. */
  open(): Promise<void> {
    return this.fill();
  }

  /** Moves to the next item; a promise only when a new batch must be read. */
  advance(): Promise<void> | undefined {
    this.index += 1;
    if (this.index < this.batch.length || this.done) return undefined;
    return this.fill();
  }

  private async fill(): Promise<void> {
    this.batch = [];
    this.index = 0;
    while (!this.done && this.batch.length === 0) {
      const next = await (this.ahead.shift() ?? this.source.next());
      if (next.done) {
        this.done = true;
        this.ahead.length = 0;
      } else {
        this.batch = next.value;
        while (this.ahead.length < this.readAhead) {
          const request = this.source.next();
          // A failure is raised when the batch is awaited above; until then it must not count
          // as unhandled (that would end the process).
          request.catch(() => undefined);
          this.ahead.push(request);
        }
      }
    }
  }
}
