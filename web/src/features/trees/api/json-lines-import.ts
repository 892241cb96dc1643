import { Code, ConnectError } from '@connectrpc/connect';
import type { ImportLineShape } from '@store/contract';
import { gunzipMembers, isGzip } from '../utils/gzip-members';
import {
  parseImportLine,
  readLines,
  type ParsedEntry,
  type RefusedLine,
} from '../utils/json-lines';

/** Most entries per PutEntries call (the server's limit). */
export const MAX_BATCH_ENTRIES = 1000;
/**
 * Bytes of keys and values per call: well under the server's default 4 MiB message limit
 * (STORE_MAX_MESSAGE_BYTES), leaving room for framing. A call refused as too large is split.
 */
export const MAX_BATCH_BYTES = 1024 * 1024;
/** PutEntries calls in flight at once: enough to keep the server's group commit busy. */
export const MAX_IN_FLIGHT = 3;
/** Problem lines kept for the report (the counts stay exact). */
export const MAX_REPORTED_LINES = 1000;

/** One entry's outcome as PutEntries returns it. */
export interface EntryResult {
  sequence: bigint;
  deadLettered: boolean;
  deadLetterReason?: string | undefined;
}

export type PutEntriesCall = (
  entries: { key: string; valueJson: string }[],
  signal: AbortSignal,
) => Promise<EntryResult[]>;

export interface ImportProgress {
  /** Bytes of the lines dealt with: answered by the server, refused or blank. */
  bytesDone: number;
  totalBytes: number;
  linesRead: number;
  written: number;
  deadLettered: number;
  refused: number;
}

export interface DeadLetteredLine {
  line: number;
  key: string;
  reason: string;
}

export interface ImportReport extends ImportProgress {
  /** Lines read in each shape (entries and tombstones), for "read 300 lines in the … shape". */
  shapes: Record<ImportLineShape, number>;
  /** Export-artifact tombstones (deletions) skipped: an import only writes. */
  tombstonesSkipped: number;
  /** The file was gzip (an exported artifact as downloaded) and was read decompressed. */
  gzip: boolean;
  deadLetteredLines: DeadLetteredLine[];
  refusedLines: RefusedLine[];
  /** Stopped by the user: entries sent but not yet answered may or may not be written. */
  cancelled: boolean;
  /** A failure that stopped the import (the server unreachable, permission, a locked tree). */
  error?: unknown;
}

export interface ImportOptions {
  file: Blob;
  putEntries: PutEntriesCall;
  signal: AbortSignal;
  onProgress: (progress: ImportProgress) => void;
}

/**
 * Imports a JSON Lines file, plain or gzip: reads it as a stream (never whole in memory), parses
 * line by line in either line shape (the import's own or an export artifact's),
 * and sends PutEntries batches (≤ 1 000 entries, ≤ 1 MiB) with at most MAX_IN_FLIGHT calls at
 * once. Lines that are not entries are refused here with their line numbers; an entry the server
 * refuses (InvalidArgument or ResourceExhausted naming `entries[i]`) is refused alone and the
 * rest of its batch resent; dead letters are reported per line. Connect-web has no client
 * streaming, hence batches of unary calls.
 */
export async function importJsonLines(options: ImportOptions): Promise<ImportReport> {
  const { file, putEntries, signal, onProgress } = options;
  const gzip = await isGzip(file);
  const source = gzip
    ? gunzipMembers(file.stream())
    : { stream: file.stream(), fileBytesPerByte: () => 1 };
  const report: ImportReport = {
    shapes: { import: 0, artifact: 0 },
    tombstonesSkipped: 0,
    gzip,
    bytesDone: 0,
    totalBytes: file.size,
    linesRead: 0,
    written: 0,
    deadLettered: 0,
    refused: 0,
    deadLetteredLines: [],
    refusedLines: [],
    cancelled: false,
  };
  const progress = () =>
    onProgress({
      // Lines of a gzip file are counted in file bytes by the compression ratio: an estimate.
      bytesDone: Math.min(report.bytesDone, report.totalBytes),
      totalBytes: report.totalBytes,
      linesRead: report.linesRead,
      written: report.written,
      deadLettered: report.deadLettered,
      refused: report.refused,
    });
  const refuse = (refused: RefusedLine) => {
    report.refused += 1;
    if (report.refusedLines.length < MAX_REPORTED_LINES) report.refusedLines.push(refused);
  };
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;

  const send = (batch: ParsedEntry[], lineBytes: number) => {
    const call = sendBatch(batch, putEntries, signal, refuse)
      .then((results) => {
        report.bytesDone += lineBytes;
        results.forEach((result, i) => {
          const entry = batch[i];
          if (!entry || !result) return;
          if (!result.deadLettered) report.written += 1;
          else {
            report.deadLettered += 1;
            if (report.deadLetteredLines.length < MAX_REPORTED_LINES) {
              report.deadLetteredLines.push({
                line: entry.line,
                key: entry.key,
                reason: result.deadLetterReason ?? 'dead-lettered',
              });
            }
          }
        });
        progress();
      })
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => inFlight.delete(call));
    inFlight.add(call);
  };

  let batch: ParsedEntry[] = [];
  let batchBytes = 0;
  let batchLineBytes = 0;
  try {
    for await (const { text, line, bytes: lineBytes } of readLines(source.stream)) {
      if (signal.aborted || failure) break;
      report.linesRead = line;
      const bytes = Math.round(lineBytes * source.fileBytesPerByte());
      const parsed = parseImportLine(text, line);
      if (parsed === null || !('key' in parsed)) {
        if (parsed && 'reason' in parsed) refuse(parsed);
        if (parsed && 'tombstone' in parsed) {
          report.shapes.artifact += 1;
          report.tombstonesSkipped += 1;
        }
        report.bytesDone += bytes;
        continue;
      }
      report.shapes[parsed.shape] += 1;
      if (batch.length > 0 && batchBytes + parsed.bytes > MAX_BATCH_BYTES) {
        await flush();
      }
      batch.push(parsed);
      batchBytes += parsed.bytes;
      batchLineBytes += bytes;
      if (batch.length >= MAX_BATCH_ENTRIES) await flush();
    }
    if (!signal.aborted && !failure) await flush();
  } catch (error) {
    failure ??= { error };
  }
  await Promise.all(inFlight);
  report.cancelled = signal.aborted;
  if (failure && !report.cancelled) report.error = failure.error;
  // Every line dealt with (the sum can differ from the size only for invalid UTF-8).
  if (!report.cancelled && !failure) report.bytesDone = report.totalBytes;
  progress();
  return report;

  async function flush() {
    if (batch.length > 0) {
      // Bounded in flight: wait for a call to finish before reading on.
      while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
      send(batch, batchLineBytes);
      batch = [];
      batchBytes = 0;
      batchLineBytes = 0;
    }
    progress();
  }
}

/**
 * One batch, answered per entry in its order. Entries the server refuses by index are taken out
 * (refused) and the rest resent; a batch over the message limit is split in halves.
 */
async function sendBatch(
  batch: ParsedEntry[],
  putEntries: PutEntriesCall,
  signal: AbortSignal,
  refuse: (refused: RefusedLine) => void,
): Promise<(EntryResult | undefined)[]> {
  if (batch.length === 0) return [];
  try {
    const results = await putEntries(
      batch.map(({ key, valueJson }) => ({ key, valueJson })),
      signal,
    );
    return results;
  } catch (error) {
    const connectError = ConnectError.from(error);
    const named = /^entries\[(\d+)\]\.[a-z_]+: /.exec(connectError.rawMessage);
    const index = named ? Number(named[1]) : -1;
    const entryCode =
      connectError.code === Code.InvalidArgument || connectError.code === Code.ResourceExhausted;
    const culprit = batch[index];
    if (entryCode && culprit) {
      refuse({
        line: culprit.line,
        reason: connectError.rawMessage.replace(/^entries\[\d+\]\./, ''),
      });
      const rest = [...batch.slice(0, index), ...batch.slice(index + 1)];
      const results = await sendBatch(rest, putEntries, signal, refuse);
      return [...results.slice(0, index), undefined, ...results.slice(index)];
    }
    if (connectError.code === Code.ResourceExhausted && batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      const first = await sendBatch(batch.slice(0, half), putEntries, signal, refuse);
      const second = await sendBatch(batch.slice(half), putEntries, signal, refuse);
      return [...first, ...second];
    }
    if (connectError.code === Code.ResourceExhausted && batch[0]) {
      refuse({ line: batch[0].line, reason: connectError.rawMessage });
      return [undefined];
    }
    throw error;
  }
}
