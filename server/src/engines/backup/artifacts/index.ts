// The artifact store's public surface; engines import from here, not from the single files.
export { ArtifactStore } from './artifact-store.js';
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
  readArtifactBatches,
  readArtifactLineBatches,
  readArtifactRecords,
  verifyArtifact,
} from './artifact-reader.js';
export {
  MANIFEST_VERSION,
  type FoundManifest,
  type StoredManifest,
  type UnreadableManifest,
  type WriteManifestOptions,
  listManifests,
  parseManifest,
  readManifest,
  writeManifest,
} from './manifest-file.js';
export {
  type StoredBackupFiles,
  type StoredFile,
  deleteBackupFiles,
  deleteOrphan,
  listStoredBackups,
} from './stored-backups.js';
