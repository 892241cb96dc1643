import { describeArtifactLocation } from '../../../../config/artifact-location.js';
import { StoreError } from '../../../errors.js';
import { readVerifiedBatches } from '../artifact-reader.js';
import type { ArtifactStore, BackupFilesRef, BackupWriter } from '../artifact-store.js';
import type {
  ArtifactRecord,
  ArtifactRef,
  ArtifactVerification,
  SignalOptions,
  WrittenArtifact,
} from '../artifact-types.js';
import {
  ArtifactWriter,
  type ArtifactWriterOptions,
  type RecordSource,
} from '../artifact-writer.js';
import type { ExportOptions } from '../artifact-export.js';
import {
  type FoundManifest,
  type StoredManifest,
  type UnreadableManifest,
  type WriteManifestOptions,
  manifestText,
  sealManifest,
} from '../manifest-file.js';
import { LineSplitter, RecordLineDecoder } from '../ndjson-codec.js';
import type { StoredBackupFiles } from '../stored-backups.js';
import { S3Parts, type UploadSizes } from './s3-artifact-parts.js';
import { artifactKey, artifactStoreFailure, manifestKey } from './s3-artifact-keys.js';
import { exportObject } from './s3-artifact-export.js';
import { objectSource, verifyObject } from './s3-artifact-reads.js';
import type { S3ObjectStore } from './s3-object-store.js';
import { deleteBackupsObjects } from './s3-batch-delete.js';
import { RetriedCleanup } from './s3-retried-cleanup.js';
import {
  deleteBackupObjects,
  deleteOrphanObject,
  listManifestObjects,
  listStoredObjects,
  readManifestObject,
} from './s3-stored-backups.js';

/** Scrub's age for S3 leftovers: incomplete uploads and unowned prefixes younger stay. */
const ONE_DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The artifact store in S3-compatible object storage (`s3://bucket/prefix`): objects
 * `<prefix>/<tenant>/<backupId>/part-00001.ndjson.gz` and `…/manifest.json`, the same names
 * and bytes as in a directory. Captures stream each artifact into a multipart upload as rows
 * are read; a manifest is put only after every upload completed and its stored size and sha256
 * were checked; every read re-hashes against the manifest (DataLoss when it differs). A server
 * that stops answering fails the operation Unavailable, the message naming this store.
 */
export class S3ArtifactStore implements ArtifactStore {
  readonly kind = 's3';
  readonly description: string;
  /**
   * A day, as for incomplete multipart uploads: a prefix or upload younger than that may be a
   * capture at work on any replica, and S3 has no rename that would make a write atomic.
   */
  readonly orphanGraceMs = ONE_DAY_MS;
  /** Cleanups of failed captures that wait for the server to answer again. */
  readonly cleanup: RetriedCleanup;

  constructor(
    readonly objects: S3ObjectStore,
    private readonly uploads: UploadSizes & { cleanup?: RetriedCleanup } = {},
  ) {
    this.description = describeArtifactLocation(objects.location);
    this.cleanup = uploads.cleanup ?? new RetriedCleanup();
  }

  openWriter(tenant: string, backupId: string, options: ArtifactWriterOptions = {}): BackupWriter {
    const sizes = { partSize: this.uploads.partSize, queueSize: this.uploads.queueSize };
    const target = new S3Parts(this.objects, this.description, this.cleanup, tenant, backupId, {
      ...options,
      ...sizes,
    });
    return new ArtifactWriter(target, options);
  }

  writeArtifacts(
    tenant: string,
    backupId: string,
    source: RecordSource,
    options?: ArtifactWriterOptions,
  ): Promise<WrittenArtifact[]> {
    return this.openWriter(tenant, backupId, options).writeAll(source);
  }

  async writeManifest<M>(
    tenant: string,
    backupId: string,
    manifest: M,
    options: WriteManifestOptions = {},
  ): Promise<StoredManifest<M>> {
    const key = manifestKey(tenant, backupId);
    try {
      for (const artifact of options.artifacts ?? []) {
        const info = await this.objects.head(artifactKey(tenant, backupId, artifact.artifactId));
        if (info?.bytes !== artifact.byteSize) {
          throw new StoreError(
            'failed_precondition',
            `artifact ${artifact.artifactId} is not stored yet; the manifest must come last`,
          );
        }
      }
      const stored = sealManifest(manifest);
      await this.objects.put(key, [Buffer.from(manifestText(stored), 'utf8')], {
        contentType: 'application/json',
      });
      return stored;
    } catch (error) {
      throw artifactStoreFailure(this.description, error);
    }
  }

  readManifest<M = unknown>(tenant: string, backupId: string): Promise<StoredManifest<M>> {
    return readManifestObject<M>(this.objects, this.description, tenant, backupId);
  }

  listManifests<M = unknown>(
    tenant?: string,
  ): Promise<{ manifests: FoundManifest<M>[]; unreadable: UnreadableManifest[] }> {
    return listManifestObjects<M>(this.objects, this.description, tenant);
  }

  verifyArtifact(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options?: SignalOptions,
  ): Promise<ArtifactVerification> {
    const key = artifactKey(tenant, backupId, artifact.artifactId);
    return verifyObject(this.objects, this.description, key, artifact, options);
  }

  async *readArtifactRecords(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options: SignalOptions = {},
  ): AsyncGenerator<ArtifactRecord, void, undefined> {
    for await (const batch of this.readArtifactBatches(tenant, backupId, artifact, options)) {
      yield* batch;
    }
  }

  readArtifactBatches(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options: SignalOptions = {},
  ): AsyncGenerator<ArtifactRecord[], void, undefined> {
    const key = artifactKey(tenant, backupId, artifact.artifactId);
    const source = objectSource(this.objects, this.description, key, artifact, options);
    return readVerifiedBatches(source, artifact, new RecordLineDecoder(), options);
  }

  readArtifactLineBatches(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options: SignalOptions = {},
  ): AsyncGenerator<string[], void, undefined> {
    const key = artifactKey(tenant, backupId, artifact.artifactId);
    const source = objectSource(this.objects, this.description, key, artifact, options);
    return readVerifiedBatches(source, artifact, new LineSplitter(), options);
  }

  exportArtifact(
    tenant: string,
    backupId: string,
    artifact: ArtifactRef,
    options?: ExportOptions,
  ): AsyncGenerator<Uint8Array, void, undefined> {
    const key = artifactKey(tenant, backupId, artifact.artifactId);
    return exportObject(this.objects, this.description, key, artifact, options);
  }

  listStoredBackups(tenant?: string): Promise<StoredBackupFiles[]> {
    return listStoredObjects(this.objects, this.description, tenant);
  }

  deleteBackupFiles(tenant: string, backupId: string): Promise<boolean> {
    return deleteBackupObjects(this.objects, this.description, tenant, backupId);
  }

  /** Deletes by known keys, every manifest first, in a few DeleteObjects requests at once. */
  deleteManyBackupFiles(tenant: string, backups: readonly BackupFilesRef[]): Promise<void> {
    return deleteBackupsObjects(this.objects, this.description, tenant, backups);
  }

  /** Deletes now, or keeps trying in the background while the server does not answer. */
  async discardBackup(tenant: string, backupId: string): Promise<void> {
    await this.cleanup.run(async () => {
      await deleteBackupObjects(this.objects, this.description, tenant, backupId);
    });
  }

  deleteOrphan(path: string): Promise<boolean> {
    return deleteOrphanObject(this.objects, this.description, path);
  }
}
