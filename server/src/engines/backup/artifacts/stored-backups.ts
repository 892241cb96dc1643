import { lstat, readdir, realpath, rm, rmdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { invalidArgument } from '../../errors.js';
import {
  ARTIFACT_SUFFIX,
  type ArtifactLayout,
  MANIFEST_FILE,
  TEMP_PREFIX,
  segmentsBelow,
} from './artifact-paths.js';
import { errnoCode, fsyncDirectory } from './durable-fs.js';
import { listIdDirs } from './manifest-file.js';

/** A file found in a backup directory. */
export interface StoredFile {
  name: string;
  path: string;
  byteSize: number;
  /** ms since the epoch; scrub leaves young temp files alone (a capture may still be running). */
  modifiedAt: number;
}

/** What one backup directory holds on disk, for scrub and health. */
export interface StoredBackupFiles {
  tenant: string;
  backupId: string;
  /** Where the backup lies: its directory, or its key prefix (S3); `deleteOrphan` takes it. */
  directory: string;
  hasManifest: boolean;
  /** Finished artifacts, with their ids. */
  artifacts: (StoredFile & { artifactId: string })[];
  /**
   * Unfinished writes: `.tmp-*` files, or incomplete multipart uploads (S3), left by a capture or
   * manifest write that crashed (or is still running).
   */
  tempFiles: StoredFile[];
  /** Anything else: not written by this store. */
  otherFiles: string[];
}

/** Lists each backup directory's artifacts, leftover temp files and whether a manifest exists. */
export async function listStoredBackups(
  layout: ArtifactLayout,
  tenant?: string,
): Promise<StoredBackupFiles[]> {
  const tenants = tenant === undefined ? await listIdDirs(layout.root) : [tenant];
  const result: StoredBackupFiles[] = [];
  for (const t of tenants) {
    for (const backupId of await listIdDirs(layout.tenantDir(t))) {
      const found = await describeBackupDir(layout.backupDir(t, backupId));
      if (found) result.push({ tenant: t, backupId, ...found });
    }
  }
  return result;
}

async function describeBackupDir(
  directory: string,
): Promise<Omit<StoredBackupFiles, 'tenant' | 'backupId'> | null> {
  let names: string[];
  try {
    names = (await readdir(directory)).sort();
  } catch (error) {
    // Deleted between the parent's listing and now: nothing to report.
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  }
  const found: Omit<StoredBackupFiles, 'tenant' | 'backupId'> = {
    directory,
    hasManifest: false,
    artifacts: [],
    tempFiles: [],
    otherFiles: [],
  };
  for (const name of names) {
    const path = join(directory, name);
    const info = await lstat(path).catch(() => null);
    if (!info) continue;
    const file: StoredFile = { name, path, byteSize: info.size, modifiedAt: info.mtimeMs };
    if (name === MANIFEST_FILE && info.isFile()) found.hasManifest = true;
    else if (name.startsWith(TEMP_PREFIX) && info.isFile()) found.tempFiles.push(file);
    else if (name.endsWith(ARTIFACT_SUFFIX) && !name.startsWith('.') && info.isFile()) {
      found.artifacts.push({ ...file, artifactId: name.slice(0, -ARTIFACT_SUFFIX.length) });
    } else found.otherFiles.push(name);
  }
  return found;
}

/** Removes a backup's directory and everything in it; true if there was one (idempotent). */
export async function deleteBackupFiles(
  layout: ArtifactLayout,
  tenant: string,
  backupId: string,
): Promise<boolean> {
  const dir = layout.backupDir(tenant, backupId);
  const existed = await lstat(dir).then(
    () => true,
    () => false,
  );
  if (!existed) return false;
  // The manifest goes first: should the process die mid-delete, what remains is an orphan that
  // scrub can prune, never a manifest that points at artifacts which are gone.
  await rm(join(dir, MANIFEST_FILE), { force: true });
  await rm(dir, { recursive: true, force: true });
  await fsyncDirectory(dirname(dir));
  return true;
}

/** Backup directories removed at once by a batch delete (rm runs on libuv's thread pool). */
const DIRECTORY_DELETES_IN_FLIGHT = 8;

/**
 * Removes many backups' directories (idempotent), each manifest before the rest of its
 * directory, then syncs the tenant's directory once: the batch is durable when this returns,
 * as each single delete is. The files the manifest lists are unlinked by name and the directory
 * removed empty (three system calls for a one-artifact backup); a directory holding anything
 * else is removed whole.
 */
export async function deleteManyBackupFiles(
  layout: ArtifactLayout,
  tenant: string,
  backups: readonly { backupId: string; artifactIds: readonly string[] }[],
): Promise<void> {
  const removeOne = async ({ backupId, artifactIds }: (typeof backups)[number]) => {
    const dir = layout.backupDir(tenant, backupId);
    await rm(join(dir, MANIFEST_FILE), { force: true });
    await Promise.all(
      artifactIds.map((id) => rm(layout.artifactPath(tenant, backupId, id), { force: true })),
    );
    try {
      await rmdir(dir);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return;
      // Not empty (a leftover the manifest does not list) or not a plain directory.
      await rm(dir, { recursive: true, force: true });
    }
  };
  let next = 0;
  const worker = async () => {
    while (next < backups.length) await removeOne(backups[next++]!);
  };
  await Promise.all(
    Array.from({ length: Math.min(DIRECTORY_DELETES_IN_FLIGHT, backups.length) }, worker),
  );
  if (backups.length > 0) await fsyncDirectory(layout.tenantDir(tenant)).catch(ignoreMissing);
}

function ignoreMissing(error: unknown): void {
  if (errnoCode(error) !== 'ENOENT') throw error;
}

/**
 * Deletes one orphan (a stray file or backup directory) for scrub with prune. Only paths at least
 * two levels below the root (`<tenant>/<backup>[/<file>]`) qualify, so a whole tenant or the root
 * itself can never be pruned; symlinked parents may not lead outside the root either.
 */
export async function deleteOrphan(layout: ArtifactLayout, path: string): Promise<boolean> {
  const target = resolve(layout.root, path);
  const segments = layout.segmentsInside(target);
  if (!segments || segments.length < 2) {
    throw invalidArgument('path', 'must name a backup directory or a file inside one');
  }
  let realParent: string;
  try {
    realParent = await realpath(dirname(target));
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw error;
  }
  // The parent must still be at least `<tenant>` below the real root once symlinks resolve.
  const below = segmentsBelow(await realpath(layout.root), realParent);
  if (!below || below.length < segments.length - 1) {
    throw invalidArgument('path', 'resolves outside the artifact root');
  }
  const existed = await lstat(target).then(
    () => true,
    () => false,
  );
  if (!existed) return false;
  // rm on a symlink removes the link itself, never what it points at.
  await rm(target, { recursive: true, force: true });
  await fsyncDirectory(dirname(target));
  return true;
}
