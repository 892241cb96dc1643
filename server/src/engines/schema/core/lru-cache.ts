/**
 * A small bounded least-recently-used map. A Map keeps insertion order, so re-inserting on every
 * hit keeps the least recently used entry first, where eviction finds it.
 */
export class LruCache<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`LRU capacity must be a positive integer, got ${capacity}`);
    }
  }

  /** The number of entries held. */
  get size(): number {
    return this.#entries.size;
  }

  /** The value under key, marking it most recently used. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Store a value, evicting the least recently used entry when full. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  /** Drop every entry. */
  clear(): void {
    this.#entries.clear();
  }
}
