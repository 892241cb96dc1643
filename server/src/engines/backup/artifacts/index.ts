// The artifact store's public surface; engines import from here, not from the single files.
export type { ArtifactStore, BackupFilesRef, BackupWriter } from './artifact-store.js';
export { DirectoryArtifactStore } from './directory-artifact-store.js';
export { S3ArtifactStore } from './object-store/s3-artifact-store.js';
export { openArtifactStore } from './open-artifact-store.js';
export { DirectoryParts, type ArtifactPart, type PartTarget } from './artifact-parts.js';
export {
  ARTIFACT_SUFFIX,
  ArtifactLayout,
  MANIFEST_FILE,
  TEMP_PREFIX,
  assertArtifactId,
  assertSafeSegment,
  defaultArtifactRoot,
  partArtifactId,
} from './artifact-paths.js';
export type {
  ArtifactProblem,
  ArtifactRecord,
  ArtifactRef,
  ArtifactVerification,
  SignalOptions,
  WrittenArtifact,
} from './artifact-types.js';
export {
  ArtifactWriter,
  type ArtifactWriterOptions,
  type RecordSource,
  writeArtifacts,
} from './artifact-writer.js';
export {
  DEFAULT_EXPORT_CHUNK_BYTES,
  type ExportOptions,
  exportArtifact,
} from './artifact-export.js';
export {
  EncodedLineSplitter,
  type EncodedLines,
  LineSplitter,
  decodeRecord,
} from './ndjson-codec.js';
export {
  type ArtifactByteSource,
  readArtifactBatches,
  readArtifactLineBatches,
  readArtifactRecords,
  readVerifiedBatches,
  verifyArtifact,
  verifyBytes,
} from './artifact-reader.js';
export {
  MANIFEST_VERSION,
  type FoundManifest,
  type StoredManifest,
  type UnreadableManifest,
  type WriteManifestOptions,
  checkManifest,
  listManifests,
  manifestText,
  parseManifest,
  sealManifest,
  readManifest,
  writeManifest,
} from './manifest-file.js';
export {
  type StoredBackupFiles,
  type StoredFile,
  deleteBackupFiles,
  deleteManyBackupFiles,
  deleteOrphan,
  listStoredBackups,
} from './stored-backups.js';
