// Object storage over the S3 API for backup artifacts: the client, the operations the artifact
// store builds on, scrub's cleanup of incomplete uploads and the start-up check.
export {
  createS3Client,
  s3SettingsFrom,
  type S3ClientOverrides,
  type S3Settings,
} from './s3-client.js';
export { redactSecrets, s3Failure } from './s3-errors.js';
export type { AbortedUploads, IncompleteUpload } from './s3-incomplete-uploads.js';
export {
  S3ObjectStore,
  type ObjectInfo,
  type ObjectRead,
  type ReadOptions,
} from './s3-object-store.js';
export { checkObjectStoreAccess } from './s3-startup-check.js';
export {
  MIN_PART_BYTES,
  SHA256_METADATA,
  putStream,
  type StoredObject,
  type StreamingPutOptions,
} from './s3-streaming-put.js';
