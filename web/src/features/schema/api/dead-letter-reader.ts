import { StoreSchemaDeadLetterReason, type StoreSchemaDeadLetterEntry } from '@store/contract';

/** "SCHEMA_VIOLATION" → "Schema violation". */
export function reasonLabel(reason: StoreSchemaDeadLetterReason): string {
  const name = StoreSchemaDeadLetterReason[reason] ?? 'UNSPECIFIED';
  return name.charAt(0) + name.slice(1).toLowerCase().replaceAll('_', ' ');
}

export interface DeadLetterReaderState {
  rows: readonly StoreSchemaDeadLetterEntry[];
  /** The server has sent every row. */
  done: boolean;
  /** A read is in flight. */
  reading: boolean;
  error: unknown;
}

/**
 * Reads a StreamDeadLetters server stream on demand: rows are pulled only until the page being
 * shown is full (plus one, to know whether a next page exists), so a tree with many dead letters
 * is not read to the end for its first page. The unread rest waits in the stream (HTTP flow
 * control); `close()` (the user left) aborts it.
 */
export class DeadLetterReader {
  private iterator: AsyncIterator<StoreSchemaDeadLetterEntry> | undefined;
  private state: DeadLetterReaderState = { rows: [], done: false, reading: false, error: null };
  private wanted = 0;
  private pump: Promise<void> | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly abort = new AbortController();

  constructor(
    private readonly open: (signal: AbortSignal) => AsyncIterable<StoreSchemaDeadLetterEntry>,
  ) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): DeadLetterReaderState => this.state;

  /** Reads until at least `count` rows are held, the stream ends, or it fails. */
  ensure(count: number): void {
    // A failed stream stays failed: the view offers to read again with a new reader.
    if (this.state.error || this.abort.signal.aborted) return;
    this.wanted = Math.max(this.wanted, count);
    this.pump ??= this.read().finally(() => {
      this.pump = undefined;
    });
  }

  /** Stops reading and releases the stream. */
  close(): void {
    this.abort.abort();
  }

  private async read(): Promise<void> {
    const batch: StoreSchemaDeadLetterEntry[] = [];
    this.set({ reading: true });
    try {
      this.iterator ??= this.open(this.abort.signal)[Symbol.asyncIterator]();
      while (!this.state.done && this.state.rows.length + batch.length < this.wanted) {
        const next = await this.iterator.next();
        if (this.abort.signal.aborted) return;
        if (next.done) {
          this.set({ rows: [...this.state.rows, ...batch], done: true });
          batch.length = 0;
          break;
        }
        batch.push(next.value);
      }
      this.set({ rows: [...this.state.rows, ...batch], reading: false });
    } catch (error) {
      if (this.abort.signal.aborted) return;
      this.set({ rows: [...this.state.rows, ...batch], reading: false, error });
    }
  }

  private set(patch: Partial<DeadLetterReaderState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}
