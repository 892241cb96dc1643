import { StoreError } from '../../errors.js';
import type { ArtifactStore } from '../artifacts/index.js';
import type { ManifestChain } from '../restore/chain-source.js';
import { BatchCursor, type EntryCursor, type SideEntry } from './entry-cursor.js';
import { sideEntryOf } from './entry-line.js';
import { compareKeys } from './key-order.js';

/**
 * Decompressed chunks (~16 KiB each) asked for ahead, so gunzip keeps working on libuv's threads
 * while the main thread reads the tree: about 1 MiB shared by the chain's backups (at least two
 * chunks each), whatever the size of the tree.
 */
const READ_AHEAD_CHUNKS = 64;

/**
 * The entries a restore of a chain would leave under a key prefix, in key order, read straight
 * from the artifacts: a k-way merge of the chain's backups (each written in key order by its
 * capture), where the latest backup's record of a key wins and a tombstone removes the key, as
 * restore applies them full → incrementals. Memory holds one decompressed batch per backup.
 *
 * The lines come from the same reader as restore, which hashes each artifact as it streams
 * and throws DataLoss at its end when the bytes, size or entry count differ from the manifest.
 * Every artifact is therefore read to its end, also past the prefix.
 */
export class ChainStateCursor implements EntryCursor {
  current: SideEntry | undefined;
  /** Records read from the artifacts so far (progress). */
  recordsRead = 0;
  private readonly members: BatchCursor<SideEntry>[];
  private readonly iterators: AsyncGenerator<SideEntry[]>[];

  private constructor(
    artifacts: ArtifactStore,
    tenant: string,
    chain: ManifestChain,
    private readonly prefix: string,
    signal: AbortSignal,
  ) {
    this.iterators = chain.map((manifest) =>
      (async function* () {
        for (const artifact of manifest.artifacts) {
          const batches = artifacts.readArtifactLineBatches(tenant, manifest.backupId, artifact, {
            signal,
          });
          // Only the key and the tombstone mark are read here; the value is parsed when the
          // entry differs from the other side's.
          for await (const lines of batches) yield lines.map(sideEntryOf);
        }
      })(),
    );
    const readAhead = Math.max(2, Math.floor(READ_AHEAD_CHUNKS / chain.length));
    this.members = this.iterators.map((iterator) => new BatchCursor(iterator, readAhead));
  }

  /** Opens a cursor positioned on the first entry under `prefix`. */
  static async open(
    artifacts: ArtifactStore,
    tenant: string,
    chain: ManifestChain,
    prefix: string,
    signal: AbortSignal,
  ): Promise<ChainStateCursor> {
    const cursor = new ChainStateCursor(artifacts, tenant, chain, prefix, signal);
    try {
      await Promise.all(cursor.members.map((member) => member.open()));
      await cursor.settleAsync();
    } catch (error) {
      await cursor.close();
      throw error;
    }
    return cursor;
  }

  advance(): Promise<void> | undefined {
    const key = this.current?.key;
    if (key === undefined) return undefined;
    const pending = this.consume(key);
    if (pending) return pending.then(() => this.settleAsync());
    return this.settle();
  }

  /** Ends every artifact stream early (after a failure or cancel). */
  async close(): Promise<void> {
    await Promise.all(
      this.iterators.map((iterator) => iterator.return(undefined).catch(() => undefined)),
    );
  }

  /** Picks the next visible entry; a promise only when hidden records needed a new batch. */
  private settle(): Promise<void> | undefined {
    for (;;) {
      const hidden = this.pick();
      if (hidden === undefined) return undefined;
      const pending = this.consume(hidden);
      if (pending) return pending.then(() => this.settleAsync());
    }
  }

  private async settleAsync(): Promise<void> {
    for (;;) {
      const hidden = this.pick();
      if (hidden === undefined) return;
      const pending = this.consume(hidden);
      if (pending) await pending;
    }
  }

  /**
   * Sets `current` to the smallest head key's winning record (the latest backup holding it) and
   * returns undefined; or, when that record is a tombstone or outside the prefix, returns its key
   * so the caller consumes it and picks again.
   */
  private pick(): string | undefined {
    let winner: SideEntry | undefined;
    for (const member of this.members) {
      const head = member.current;
      if (head === undefined) continue;
      // `<= 0`: on equal keys the later backup of the chain wins.
      if (winner === undefined || compareKeys(head.key, winner.key) <= 0) winner = head;
    }
    if (winner === undefined) {
      this.current = undefined;
      return undefined;
    }
    if (winner.tombstone || !winner.key.startsWith(this.prefix)) return winner.key;
    this.current = winner;
    return undefined;
  }

  /** Moves every backup whose head is `key` past it; a promise when one had to read. */
  private consume(key: string): Promise<void> | undefined {
    let waits: Promise<void>[] | undefined;
    for (const member of this.members) {
      if (member.current?.key !== key) continue;
      this.recordsRead += 1;
      const pending = member.advance();
      if (pending) (waits ??= []).push(pending.then(() => inOrder(member, key)));
      else inOrder(member, key);
    }
    return waits && Promise.all(waits).then(() => undefined);
  }
}

/** A backup's records must rise strictly in key order; anything else is not a capture's file. */
function inOrder(member: BatchCursor<SideEntry>, previous: string): void {
  const next = member.current;
  if (next !== undefined && compareKeys(next.key, previous) <= 0) {
    throw new StoreError('data_loss', 'a backup artifact lists its keys out of order');
  }
}
