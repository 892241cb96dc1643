import { ArtifactLayout } from './artifact-paths.js';
import type {
  ArtifactRecord,
  ArtifactRef,
  ArtifactVerification,
  SignalOptions,
  WrittenArtifact,
} from './artifact-types.js';
import { exportArtifact, type ExportOptions } from './artifact-export.js';
import {
  readArtifactBatches,
  readArtifactLineBatches,
  readArtifactRecords,
  verifyArtifact,
} from './artifact-reader.js';
import { DirectoryParts } from './artifact-parts.js';
import type { ArtifactStore, BackupFilesRef, BackupWriter } from './artifact-store.js';
import {
  ArtifactWriter,
  type ArtifactWriterOptions,
  type RecordSource,
  writeArtifacts,
} from './artifact-writer.js';
import {
  type FoundManifest,
  type StoredManifest,
  type UnreadableManifest,
  type WriteManifestOptions,
  listManifests,
  readManifest,
  writeManifest,
} from './manifest-file.js';
import {
  type StoredBackupFiles,
  deleteBackupFiles,
  deleteManyBackupFiles,
  deleteOrphan,
  listStoredBackups,
} from './stored-backups.js';

/**
 * The artifact store in one root directory (the default), no database (DESIGN.md §5). Layout:
 * `<root>/<tenant>/<backupId>/<artifactId>.ndjson.gz` and `<root>/<tenant>/<backupId>/manifest.json`.
 * Every id is checked to be a single safe path segment before it touches the file system.
 */
export class DirectoryArtifactStore implements ArtifactStore {
  readonly kind = 'directory';
  readonly layout: ArtifactLayout;
  /**
   * Scrub prunes leftovers at once: captures in flight are known by their claims, and every
   * write here is atomic (temp file, rename), so nothing of a live capture looks finished.
   */
  readonly orphanGraceMs = 0;

  constructor(root: string) {
    this.layout = new ArtifactLayout(root);
  }

  /** The resolved root directory. */
  get root(): string {
    return this.layout.root;
  }

  get description(): string {
    return this.layout.root;
  }

  /** Opens a push-style writer for a backup's artifacts (`part-00001`, …). */
  openWriter(tenant: string, backupId: string, options?: ArtifactWriterOptions): BackupWriter {
    return new ArtifactWriter(new DirectoryParts(this.layout, tenant, backupId, options), options);
  }

  /** Writes all records of `source` as durable artifacts and returns them. */
  writeArtifacts(
    tenant: string,
    backupId: string,
    source: RecordSource,
    options?: ArtifactWriterOptions,
  ): Promise<WrittenArtifact[]> {
    return writeArtifacts(this.layout, tenant, backupId, source, options);
  }

  /** Writes the manifest atomically; call only once the artifacts are durable. */
  writeManifest<M>(
    tenant: string,
    backupId: string,
    manifest: M,
    options?: WriteManifestOptions,
  ): Promise<StoredManifest<M>> {
    return writeManifest(this.layout, tenant, backupId, manifest, options);
  }

  /** Reads and verifies a manifest (NotFound if absent, DataLoss if damaged). */
  readManifest<M = unknown>(tenant: string, backupId: string): Promise<StoredManifest<M>> {
    return readManifest<M>(this.layout, tenant, backupId);
  }

  /** Every provable manifest under the root (or one tenant), and the unreadable ones. */
  listManifests<M = unknown>(
    tenant?: string,
  ): Promise<{ manifests: FoundManifest<M>[]; unreadable: UnreadableManifest[] }> {
    return listManifests<M>(this.layout, tenant);
  }

  /** Re-hashes one artifact against its manifest entry. */
  verifyArtifact(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options?: SignalOptions,
  ): Promise<ArtifactVerification> {
    return verifyArtifact(this.layout, tenant, backupId, artifact, options);
  }

  /** Streams an artifact's records, failing with DataLoss if its bytes do not prove out. */
  readArtifactRecords(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options?: SignalOptions,
  ): AsyncGenerator<ArtifactRecord, void, undefined> {
    return readArtifactRecords(this.layout, tenant, backupId, artifact, options);
  }

  /** Like readArtifactRecords, one array per decompressed chunk (fewer awaits for restore). */
  readArtifactBatches(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options?: SignalOptions,
  ): AsyncGenerator<ArtifactRecord[], void, undefined> {
    return readArtifactBatches(this.layout, tenant, backupId, artifact, options);
  }

  /** Like readArtifactBatches, as raw lines (a comparison parses only the lines it needs). */
  readArtifactLineBatches(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options?: SignalOptions,
  ): AsyncGenerator<string[], void, undefined> {
    return readArtifactLineBatches(this.layout, tenant, backupId, artifact, options);
  }

  /** Streams an artifact's stored bytes in bounded chunks, never completing a corrupt stream. */
  exportArtifact(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options?: ExportOptions,
  ): AsyncGenerator<Uint8Array, void, undefined> {
    return exportArtifact(this.layout, tenant, backupId, artifact, options);
  }

  /** What each backup directory holds: artifacts, leftover temp files, manifest presence. */
  listStoredBackups(tenant?: string): Promise<StoredBackupFiles[]> {
    return listStoredBackups(this.layout, tenant);
  }

  /** Removes a backup's files (idempotent); true if there were any. */
  deleteBackupFiles(tenant: string, backupId: string): Promise<boolean> {
    return deleteBackupFiles(this.layout, tenant, backupId);
  }

  /** Removes many backups' directories, a few at once, with one fsync of the tenant's. */
  deleteManyBackupFiles(tenant: string, backups: readonly BackupFilesRef[]): Promise<void> {
    return deleteManyBackupFiles(this.layout, tenant, backups);
  }

  /** A failed capture's files: removed now if possible, else left for scrub. */
  async discardBackup(tenant: string, backupId: string): Promise<void> {
    await deleteBackupFiles(this.layout, tenant, backupId).catch(() => false);
  }

  /** Deletes an orphan file or backup directory inside the root (scrub with prune). */
  deleteOrphan(path: string): Promise<boolean> {
    return deleteOrphan(this.layout, path);
  }
}
