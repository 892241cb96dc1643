import { StoreError } from '../../errors.js';
import { type ArtifactLayout, partArtifactId } from './artifact-paths.js';
import { type ArtifactPart, DirectoryParts, type PartTarget } from './artifact-parts.js';
import type { ArtifactRecord, SignalOptions, WrittenArtifact } from './artifact-types.js';
import { cancelledError } from './durable-fs.js';
import { encodeRecord, type EncodedLines } from './ndjson-codec.js';
import type { SinkFactory } from './part-file.js';

export interface ArtifactWriterOptions extends SignalOptions {
  /** Start a new artifact once this many entries are in the current one. */
  maxEntriesPerArtifact?: number;
  /** Start a new artifact before a record would push the current one past this many bytes. */
  maxUncompressedBytesPerArtifact?: number;
  /** zlib level 0-9; the default is zlib's (6). */
  gzipLevel?: number;
  /** Uncompressed bytes per gzip member; the default suits captures (tests make it small). */
  gzipBlockBytes?: number;
  /** Encoded records are joined into one gzip write per this many bytes. */
  batchBytes?: number;
  /** Test seam: where compressed bytes go (e.g. a sink that fails with ENOSPC). */
  sink?: SinkFactory;
}

const DEFAULT_MAX_ENTRIES = 1_000_000;
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
const DEFAULT_BATCH_BYTES = 64 * 1024;

/** What `writeAll` accepts: records or batches of them, sync or async. */
export type RecordSource =
  | AsyncIterable<ArtifactRecord | readonly ArtifactRecord[]>
  | Iterable<ArtifactRecord | readonly ArtifactRecord[]>;

/**
 * Writes one backup's records as artifacts `part-00001`, `part-00002`, … (gzip NDJSON), rolling
 * by entry count or uncompressed size, into a PartTarget (a directory, or a bucket). Each
 * artifact is durable (fsynced, renamed, directory fsynced; or its upload completed and checked)
 * before `finish` returns, so the caller may then write the manifest (DESIGN.md §5).
 *
 * Throughput: records are encoded synchronously and handed to gzip in ~64 KiB batches; the only
 * awaits are gzip backpressure and part boundaries, never one per record.
 *
 * On any failure or abort every file this writer made (temp and finished parts) is deleted: with
 * no manifest they are not a backup, and leaving them would only give scrub work.
 */
export class ArtifactWriter {
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly batchBytes: number;
  private readonly finished: WrittenArtifact[] = [];
  private part: ArtifactPart | undefined;
  private pending: string[] = [];
  /** UTF-16 length of `pending`: a cheap stand-in for its size when batching. */
  private pendingChars = 0;
  /** Exact UTF-8 size of `pending`, kept only in `exact` mode (near the size limit). */
  private pendingBytes = 0;
  private exact = false;
  private busy = false;
  private closed = false;
  private failure: { error: unknown; cleanup: Promise<void> } | undefined;
  // While a call is in flight, abort only breaks its waits and that call cleans up; when idle,
  // the listener cleans up itself. Either way cleanup never races a rename in progress.
  private readonly onAbort = () => {
    if (this.busy) this.part?.destroy(cancelledError());
    else void this.fail(cancelledError()).catch(() => undefined);
  };

  constructor(
    private readonly target: PartTarget,
    private readonly options: ArtifactWriterOptions = {},
  ) {
    this.maxEntries = positive(options.maxEntriesPerArtifact, DEFAULT_MAX_ENTRIES);
    this.maxBytes = positive(options.maxUncompressedBytesPerArtifact, DEFAULT_MAX_BYTES);
    this.batchBytes = positive(options.batchBytes, DEFAULT_BATCH_BYTES);
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The artifacts made durable so far. */
  get artifacts(): readonly WrittenArtifact[] {
    return this.finished;
  }

  /** Appends records; resolves once they are buffered (not yet durable). */
  async append(records: Iterable<ArtifactRecord>): Promise<void> {
    await this.enter();
    const signal = this.options.signal;
    try {
      for (const record of records) {
        if (signal?.aborted) throw cancelledError();
        const line = encodeRecord(record);
        let part = this.part;
        let bytes = -1;
        if (part !== undefined) {
          let roll = part.entryCount >= this.maxEntries;
          // UTF-8 needs at most 3 bytes per UTF-16 unit, so far from the size limit that bound
          // settles it without counting; only near the limit are bytes counted exactly.
          if (
            !roll &&
            part.uncompressedBytes + 3 * (this.pendingChars + line.length) > this.maxBytes
          ) {
            if (!this.exact) {
              await this.flush(part); // pending is now counted exactly in part.uncompressedBytes
              this.exact = true;
            }
            bytes = Buffer.byteLength(line, 'utf8');
            roll = part.uncompressedBytes + this.pendingBytes + bytes > this.maxBytes;
          }
          if (roll) {
            await this.finishPart(part);
            part = undefined;
          }
        }
        part ??= await this.openPart();
        part.entryCount += 1;
        if (record.valueJson === null) part.tombstoneCount += 1;
        this.pending.push(line);
        this.pendingChars += line.length;
        if (this.exact) this.pendingBytes += bytes >= 0 ? bytes : Buffer.byteLength(line, 'utf8');
        if (this.pendingChars >= this.batchBytes) await this.flush(part);
      }
    } catch (error) {
      await this.fail(error);
    } finally {
      this.busy = false;
    }
  }

  /**
   * Appends lines already encoded (a capture whose database built them): handed to gzip as
   * they are. Rolls to a new artifact between runs of lines, so an artifact passes the limits
   * only when one run alone does (a capture's runs are at most its page size).
   */
  async appendEncoded(lines: EncodedLines): Promise<void> {
    await this.enter();
    try {
      let part = this.part;
      if (part !== undefined) {
        await this.flush(part);
        const full =
          part.entryCount + lines.entries > this.maxEntries ||
          part.uncompressedBytes + lines.bytes.length > this.maxBytes;
        if (full && part.entryCount > 0) {
          await this.finishPart(part);
          part = undefined;
        }
      }
      part ??= await this.openPart();
      part.entryCount += lines.entries;
      part.tombstoneCount += lines.tombstones;
      part.uncompressedBytes += lines.bytes.length;
      if (!part.write(lines.bytes)) await part.drained();
    } catch (error) {
      await this.fail(error);
    } finally {
      this.busy = false;
    }
  }

  /** Appends every record (or batch of records) of `source`, then finishes. */
  async writeAll(source: RecordSource): Promise<WrittenArtifact[]> {
    try {
      if (Symbol.asyncIterator in source) {
        for await (const item of source) await this.append(isRecordBatch(item) ? item : [item]);
      } else {
        // A synchronous source needs no await between records: one append takes it all.
        await this.append(flatten(source));
      }
    } catch (error) {
      // A failing source must not leave half a backup behind either.
      return this.fail(error);
    }
    return this.finish();
  }

  /** Makes the last artifact durable and returns all of them; no records → no artifacts. */
  async finish(): Promise<WrittenArtifact[]> {
    await this.enter();
    try {
      if (this.part) await this.finishPart(this.part);
      if (this.options.signal?.aborted) throw cancelledError();
      this.closed = true;
      this.options.signal?.removeEventListener('abort', this.onAbort);
      return [...this.finished];
    } catch (error) {
      return this.fail(error);
    } finally {
      this.busy = false;
    }
  }

  /** Stops writing and deletes every file written so far (idempotent). */
  async abort(): Promise<void> {
    if (this.closed && !this.failure) return;
    await this.fail(cancelledError()).catch(() => undefined);
  }

  private async enter(): Promise<void> {
    if (this.options.signal?.aborted || this.failure) await this.fail(cancelledError());
    if (this.closed) throw new StoreError('failed_precondition', 'the artifact writer is closed');
    // The writer is a single-producer sink; concurrent appends would interleave batches.
    if (this.busy) throw new StoreError('failed_precondition', 'the artifact writer is busy');
    this.busy = true;
  }

  private async openPart(): Promise<ArtifactPart> {
    const id = partArtifactId(this.finished.length + 1);
    this.part = await this.target.openPart(id);
    return this.part;
  }

  /** Hands the pending lines to gzip as one buffer, whose length is the exact byte count. */
  private async flush(part: ArtifactPart): Promise<void> {
    if (this.pending.length === 0) return;
    const buffer = this.takePending(part);
    if (!part.write(buffer)) await part.drained();
  }

  private async finishPart(part: ArtifactPart): Promise<void> {
    const buffer = this.takePending(part);
    this.finished.push(await part.finish(buffer));
    this.part = undefined;
    this.exact = false;
  }

  private takePending(part: ArtifactPart): Buffer {
    const buffer = Buffer.from(this.pending.join(''), 'utf8');
    part.uncompressedBytes += buffer.length;
    this.pending = [];
    this.pendingChars = 0;
    this.pendingBytes = 0;
    return buffer;
  }

  /** Records the first failure, cleans up once, and rethrows it (mapped) to every caller. */
  private async fail(error: unknown): Promise<never> {
    if (!this.failure) {
      const mapped = this.target.mapError(error);
      this.closed = true;
      this.options.signal?.removeEventListener('abort', this.onAbort);
      const part = this.part;
      this.part = undefined;
      if (part && error instanceof Error) part.destroy(error);
      this.failure = { error: mapped, cleanup: this.cleanup(part) };
    }
    await this.failure.cleanup;
    throw this.failure.error;
  }

  private async cleanup(part: ArtifactPart | undefined): Promise<void> {
    await part?.discard();
    const finished = this.finished.splice(0);
    await this.target.removeWritten(finished);
  }
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}

function* flatten(
  source: Iterable<ArtifactRecord | readonly ArtifactRecord[]>,
): Generator<ArtifactRecord> {
  for (const item of source) {
    if (isRecordBatch(item)) yield* item;
    else yield item;
  }
}

function isRecordBatch(
  item: ArtifactRecord | readonly ArtifactRecord[],
): item is readonly ArtifactRecord[] {
  return Array.isArray(item);
}

/** Writes all records of `source` for one backup and returns its durable artifacts. */
export function writeArtifacts(
  layout: ArtifactLayout,
  tenant: string,
  backupId: string,
  source: RecordSource,
  options: ArtifactWriterOptions = {},
): Promise<WrittenArtifact[]> {
  return new ArtifactWriter(
    new DirectoryParts(layout, tenant, backupId, options),
    options,
  ).writeAll(source);
}
