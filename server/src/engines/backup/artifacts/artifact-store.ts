import type { ArtifactWriterOptions, RecordSource } from './artifact-writer.js';
import type { ExportOptions } from './artifact-export.js';
import type {
  ArtifactRecord,
  ArtifactRef,
  ArtifactVerification,
  SignalOptions,
  WrittenArtifact,
} from './artifact-types.js';
import type {
  FoundManifest,
  StoredManifest,
  UnreadableManifest,
  WriteManifestOptions,
} from './manifest-file.js';
import type { EncodedLines } from './ndjson-codec.js';
import type { StoredBackupFiles } from './stored-backups.js';

/** A backup a batch delete removes: its id and the artifacts its manifest lists. */
export interface BackupFilesRef {
  backupId: string;
  /** From the manifest (the catalog row's): an object store deletes these keys without listing. */
  artifactIds: readonly string[];
}

/** A push-style writer of one backup's artifacts (`part-00001`, …). */
export interface BackupWriter {
  /** The artifacts made durable so far. */
  readonly artifacts: readonly WrittenArtifact[];
  /** Appends records; resolves once they are buffered (not yet durable). */
  append(records: Iterable<ArtifactRecord>): Promise<void>;
  /** Appends lines the database already encoded (a capture). */
  appendEncoded(lines: EncodedLines): Promise<void>;
  /** Appends every record (or batch) of `source`, then finishes. */
  writeAll(source: RecordSource): Promise<WrittenArtifact[]>;
  /** Makes the last artifact durable and returns all of them. */
  finish(): Promise<WrittenArtifact[]>;
  /** Stops and removes everything written so far (idempotent). */
  abort(): Promise<void>;
}

/**
 * Where backups keep their bytes (DESIGN.md §5 "Artifacts"): what capture, restore, cold restore,
 * catalog rebuild, export, health checks, scrub, chain-safe delete, restore preview and backup
 * diff need, and nothing of how it is kept. Two implementations: a directory
 * (DirectoryArtifactStore, the default) and S3-compatible object storage (S3ArtifactStore).
 *
 * Both keep `<tenant>/<backupId>/part-NNNNN.ndjson.gz` and `<tenant>/<backupId>/manifest.json`,
 * the manifest written only after every artifact is durable; every read verifies the sha256
 * recorded at capture (DataLoss when it differs). A store that answers no more (S3 down) fails
 * with Unavailable, naming the store and the cause.
 */
export interface ArtifactStore {
  readonly kind: 'directory' | 's3';
  /** Where the store is, for messages and logs: a directory path or `s3://bucket/prefix`. */
  readonly description: string;
  /**
   * How old a leftover (a backup without a catalog row or manifest, an unfinished write) must be
   * before scrub treats it as an orphan.
   */
  readonly orphanGraceMs: number;

  openWriter(tenant: string, backupId: string, options?: ArtifactWriterOptions): BackupWriter;
  /** Writes all records of `source` as durable artifacts and returns them. */
  writeArtifacts(
    tenant: string,
    backupId: string,
    source: RecordSource,
    options?: ArtifactWriterOptions,
  ): Promise<WrittenArtifact[]>;

  /** Writes the manifest; only once the artifacts it lists are durable at their recorded size. */
  writeManifest<M>(
    tenant: string,
    backupId: string,
    manifest: M,
    options?: WriteManifestOptions,
  ): Promise<StoredManifest<M>>;
  /** Reads and proves a manifest (NotFound if absent, DataLoss if damaged). */
  readManifest<M = unknown>(tenant: string, backupId: string): Promise<StoredManifest<M>>;
  /** Every provable manifest (of one tenant, or all), and the unreadable ones: rebuild's input. */
  listManifests<M = unknown>(
    tenant?: string,
  ): Promise<{ manifests: FoundManifest<M>[]; unreadable: UnreadableManifest[] }>;

  /** Re-hashes one artifact against its manifest entry (health, scrub, restore's pre-check). */
  verifyArtifact(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options?: SignalOptions,
  ): Promise<ArtifactVerification>;
  /** An artifact's records, DataLoss at the end if its bytes do not prove out. */
  readArtifactRecords(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options?: SignalOptions,
  ): AsyncGenerator<ArtifactRecord, void, undefined>;
  /** Like readArtifactRecords, one array per decompressed chunk (restore). */
  readArtifactBatches(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options?: SignalOptions,
  ): AsyncGenerator<ArtifactRecord[], void, undefined>;
  /** Like readArtifactBatches, as raw lines (restore preview and backup diff). */
  readArtifactLineBatches(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options?: SignalOptions,
  ): AsyncGenerator<string[], void, undefined>;
  /** An artifact's stored bytes in bounded chunks, never completing a corrupt stream. */
  exportArtifact(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options?: ExportOptions,
  ): AsyncGenerator<Uint8Array, void, undefined>;

  /** What each stored backup holds: artifacts, unfinished writes, manifest presence (scrub). */
  listStoredBackups(tenant?: string): Promise<StoredBackupFiles[]>;
  /** Removes a backup's artifacts and manifest (idempotent; the manifest first); true if any. */
  deleteBackupFiles(tenant: string, backupId: string): Promise<boolean>;
  /**
   * Removes many backups' manifests and artifacts (idempotent; each manifest before its
   * artifacts), in few round trips: retention's apply and a cascading delete. A store that
   * could not delete something throws once it deleted what it could, naming what is left (never
   * a manifest whose artifacts are gone); what is left is scrub's, as after a crash.
   */
  deleteManyBackupFiles(tenant: string, backups: readonly BackupFilesRef[]): Promise<void>;
  /**
   * Removes what a failed capture stored, never throwing: what cannot be removed now is left
   * for scrub, or (S3) retried in the background once the store answers again.
   */
  discardBackup(tenant: string, backupId: string): Promise<void>;
  /** Deletes one orphan a listing named (its `location`/`path`), inside a backup only. */
  deleteOrphan(path: string): Promise<boolean>;
}
