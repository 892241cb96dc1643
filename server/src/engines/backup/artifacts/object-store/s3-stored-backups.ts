import { AbortMultipartUploadCommand } from '@aws-sdk/client-s3';
import { StoreError, invalidArgument, notFound } from '../../../errors.js';
import {
  ARTIFACT_SUFFIX,
  MANIFEST_FILE,
  assertSafeSegment,
  isSafeSegment,
} from '../artifact-paths.js';
import {
  type FoundManifest,
  type StoredManifest,
  type UnreadableManifest,
  checkManifest,
  parseManifest,
} from '../manifest-file.js';
import type { StoredBackupFiles } from '../stored-backups.js';
import { abortUploadsBelow } from './s3-artifact-parts.js';
import { artifactStoreFailure, backupPrefix, manifestKey } from './s3-artifact-keys.js';
import type { S3ObjectStore } from './s3-object-store.js';

/** How scrub names an incomplete multipart upload it may abort: `upload:<id>:<key>`. */
const UPLOAD_MARK = 'upload:';

/** The listing prefix of one tenant, or of all. */
function tenantPrefix(tenant: string | undefined): string {
  if (tenant === undefined) return '';
  assertSafeSegment(tenant, 'tenant');
  return `${tenant}/`;
}

/** `[tenant, backupId, name]` of a key this store could have written, else undefined. */
function splitKey(key: string): [string, string, string] | undefined {
  const [tenant, backupId, ...rest] = key.split('/');
  if (tenant === undefined || backupId === undefined || rest.length === 0) return undefined;
  if (!isSafeSegment(tenant) || !isSafeSegment(backupId)) return undefined;
  return [tenant, backupId, rest.join('/')];
}

async function readText(objects: S3ObjectStore, key: string): Promise<string> {
  const { body } = await objects.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads and proves a backup's manifest object: NotFound when absent, DataLoss when damaged. */
export async function readManifestObject<M>(
  objects: S3ObjectStore,
  where: string,
  tenant: string,
  backupId: string,
): Promise<StoredManifest<M>> {
  let text: string;
  try {
    text = await readText(objects, manifestKey(tenant, backupId));
  } catch (error) {
    if (error instanceof StoreError && error.code === 'not_found') {
      throw notFound(`backup ${backupId} has no manifest in the artifact store`);
    }
    throw artifactStoreFailure(where, error);
  }
  return parseManifest<M>(text);
}

/**
 * Every manifest object below the prefix (or one tenant's), proven by its own sha256, and the
 * ones that are not: what a catalog rebuild needs from the bucket alone. A server that does not
 * answer fails the listing (Unavailable) rather than reporting every manifest unreadable.
 */
export async function listManifestObjects<M>(
  objects: S3ObjectStore,
  where: string,
  tenant?: string,
): Promise<{ manifests: FoundManifest<M>[]; unreadable: UnreadableManifest[] }> {
  const manifests: FoundManifest<M>[] = [];
  const unreadable: UnreadableManifest[] = [];
  try {
    for await (const object of objects.list(tenantPrefix(tenant))) {
      const split = splitKey(object.key);
      if (!split || split[2] !== MANIFEST_FILE) continue;
      const [t, backupId] = split;
      let text: string;
      try {
        text = await readText(objects, object.key);
      } catch (error) {
        // Deleted between the listing and the read: no longer a backup.
        if (error instanceof StoreError && error.code === 'not_found') continue;
        throw error;
      }
      const result = checkManifest<M>(text);
      if ('stored' in result) manifests.push({ tenant: t, backupId, ...result.stored });
      else unreadable.push({ tenant: t, backupId, path: objects.describe(object.key), ...result });
    }
  } catch (error) {
    throw artifactStoreFailure(where, error);
  }
  manifests.sort((a, b) => (a.tenant + a.backupId).localeCompare(b.tenant + b.backupId));
  return { manifests, unreadable };
}

/**
 * What each backup prefix holds: finished artifacts, the manifest, and incomplete multipart
 * uploads (as `tempFiles`, dated by their start) for scrub.
 */
export async function listStoredObjects(
  objects: S3ObjectStore,
  where: string,
  tenant?: string,
): Promise<StoredBackupFiles[]> {
  const found = new Map<string, StoredBackupFiles>();
  const entry = (t: string, backupId: string) => {
    const id = `${t}/${backupId}`;
    let stored = found.get(id);
    if (!stored) {
      stored = {
        tenant: t,
        backupId,
        directory: id,
        hasManifest: false,
        artifacts: [],
        tempFiles: [],
        otherFiles: [],
      };
      found.set(id, stored);
    }
    return stored;
  };
  const prefix = tenantPrefix(tenant);
  try {
    for await (const object of objects.list(prefix)) {
      const split = splitKey(object.key);
      if (!split) continue;
      const [t, backupId, name] = split;
      const stored = entry(t, backupId);
      const file = {
        name,
        path: object.key,
        byteSize: object.bytes,
        modifiedAt: object.lastModified?.getTime() ?? 0,
      };
      if (name === MANIFEST_FILE) stored.hasManifest = true;
      else if (name.endsWith(ARTIFACT_SUFFIX) && !name.includes('/') && !name.startsWith('.')) {
        stored.artifacts.push({ ...file, artifactId: name.slice(0, -ARTIFACT_SUFFIX.length) });
      } else stored.otherFiles.push(name);
    }
    for await (const upload of objects.listIncompleteUploads(prefix)) {
      const split = splitKey(upload.key);
      if (!split) continue;
      const [t, backupId, name] = split;
      entry(t, backupId).tempFiles.push({
        name: `${name} (incomplete upload)`,
        path: `${UPLOAD_MARK}${encodeURIComponent(upload.uploadId)}:${upload.key}`,
        byteSize: 0,
        modifiedAt: upload.initiated?.getTime() ?? 0,
      });
    }
  } catch (error) {
    throw artifactStoreFailure(where, error);
  }
  return [...found.values()].sort((a, b) => a.directory.localeCompare(b.directory));
}

/** Deletes a backup's objects, the manifest first, and aborts its open uploads; true if any. */
export async function deleteBackupObjects(
  objects: S3ObjectStore,
  where: string,
  tenant: string,
  backupId: string,
): Promise<boolean> {
  const prefix = backupPrefix(tenant, backupId);
  try {
    const keys: string[] = [];
    for await (const object of objects.list(prefix)) keys.push(object.key);
    // The manifest goes first: a delete cut short leaves an orphan for scrub, never a manifest
    // pointing at artifacts that are gone.
    const manifest = manifestKey(tenant, backupId);
    if (keys.includes(manifest)) await objects.delete(manifest);
    await objects.deleteMany(keys.filter((key) => key !== manifest));
    const aborted = await abortUploadsBelow(objects, prefix);
    return keys.length > 0 || aborted > 0;
  } catch (error) {
    throw artifactStoreFailure(where, error);
  }
}

/**
 * Deletes one orphan a listing named: a backup prefix (`tenant/backup`), one object in it
 * (`tenant/backup/name`) or an incomplete upload (`upload:<id>:tenant/backup/name`). Anything
 * else, a whole tenant included, is InvalidArgument.
 */
export async function deleteOrphanObject(
  objects: S3ObjectStore,
  where: string,
  path: string,
): Promise<boolean> {
  let uploadId: string | undefined;
  let key = path;
  if (path.startsWith(UPLOAD_MARK)) {
    const rest = path.slice(UPLOAD_MARK.length);
    const colon = rest.indexOf(':');
    if (colon > 0) {
      uploadId = decodeURIComponent(rest.slice(0, colon));
      key = rest.slice(colon + 1);
    }
  }
  const segments = key.split('/');
  const [tenant, backupId] = segments;
  const valid =
    tenant !== undefined &&
    backupId !== undefined &&
    isSafeSegment(tenant) &&
    isSafeSegment(backupId) &&
    (segments.length === 2 ? uploadId === undefined : splitKey(key) !== undefined);
  if (!valid) throw invalidArgument('path', 'must name a backup, an object or an upload in one');
  if (segments.length === 2) return deleteBackupObjects(objects, where, tenant, backupId);
  try {
    if (uploadId !== undefined) {
      await objects.client.send(
        new AbortMultipartUploadCommand({
          Bucket: objects.bucket,
          Key: objects.objectKey(key),
          UploadId: uploadId,
        }),
      );
      return true;
    }
    if (!(await objects.head(key))) return false;
    await objects.delete(key);
    return true;
  } catch (error) {
    throw artifactStoreFailure(where, error);
  }
}
