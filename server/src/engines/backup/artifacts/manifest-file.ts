import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreError, notFound } from '../../errors.js';
import { type ArtifactLayout, MANIFEST_FILE, isSafeSegment } from './artifact-paths.js';
import type { ArtifactRef } from './artifact-types.js';
import { canonicalJson } from '../../data/canonical-json.js';
import { atomicWriteFile, ensureDirectory, errnoCode, mapWriteError } from './durable-fs.js';

/** Version of the manifest file envelope; bump when its layout changes. */
export const MANIFEST_VERSION = 1;

/**
 * manifest.json on disk: the caller's manifest object wrapped in an envelope, so our fields never
 * collide with its own. `sha256` covers canonicalJson({ manifestVersion, manifest }), which lets a
 * reader prove the file whatever its whitespace.
 */
export interface StoredManifest<M = unknown> {
  manifestVersion: number;
  sha256: string;
  manifest: M;
}

/** A manifest found by a walk, with where it lives. */
export interface FoundManifest<M = unknown> extends StoredManifest<M> {
  tenant: string;
  backupId: string;
}

/** A manifest file a walk could not use; catalog rebuild reports these instead of guessing. */
export interface UnreadableManifest {
  tenant: string;
  backupId: string;
  path: string;
  problem: 'corrupt' | 'checksum_mismatch' | 'unsupported_version' | 'unreadable';
  detail: string;
}

export interface WriteManifestOptions {
  /**
   * The artifacts the manifest lists. Each must already be a finished file of exactly this size:
   * a guard behind the rule that a manifest exists only once all artifacts are durable (§5).
   */
  artifacts?: readonly Pick<ArtifactRef, 'artifactId' | 'byteSize'>[];
}

function digest(manifestVersion: number, manifest: unknown): string {
  return createHash('sha256').update(canonicalJson({ manifestVersion, manifest })).digest('hex');
}

/** Writes `manifest.json` atomically (temp → fsync → rename → fsync dir); call after the artifacts. */
export async function writeManifest<M>(
  layout: ArtifactLayout,
  tenant: string,
  backupId: string,
  manifest: M,
  options: WriteManifestOptions = {},
): Promise<StoredManifest<M>> {
  const dir = layout.backupDir(tenant, backupId);
  for (const artifact of options.artifacts ?? []) {
    const path = layout.artifactPath(tenant, backupId, artifact.artifactId);
    const size = await stat(path).then(
      (s) => s.size,
      () => null,
    );
    if (size !== artifact.byteSize) {
      throw new StoreError(
        'failed_precondition',
        `artifact ${artifact.artifactId} is not durable yet; the manifest must come last`,
      );
    }
  }
  const stored = sealManifest(manifest);
  // A backup with no entries has no artifacts, so its directory may not exist yet.
  await ensureDirectory(dir).catch((error: unknown) => {
    throw mapWriteError(error);
  });
  await atomicWriteFile(dir, MANIFEST_FILE, manifestText(stored));
  return stored;
}

/** The envelope of a manifest, with the sha256 that proves it (whichever store keeps it). */
export function sealManifest<M>(manifest: M): StoredManifest<M> {
  return {
    manifestVersion: MANIFEST_VERSION,
    sha256: digest(MANIFEST_VERSION, manifest),
    manifest,
  };
}

/** The stored text of a sealed manifest: canonical JSON and a newline. */
export function manifestText(stored: StoredManifest<unknown>): string {
  return canonicalJson(stored) + '\n';
}

type ManifestProblem = UnreadableManifest['problem'];

/** Proves a manifest file's text, or says what is wrong with it. */
export function checkManifest<M>(
  text: string,
): { stored: StoredManifest<M> } | { problem: ManifestProblem; detail: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: 'corrupt', detail: 'not JSON' };
  }
  const s = parsed as Partial<StoredManifest<M>> | null;
  if (
    s === null ||
    typeof s !== 'object' ||
    typeof s.manifestVersion !== 'number' ||
    typeof s.sha256 !== 'string' ||
    !('manifest' in s)
  ) {
    return { problem: 'corrupt', detail: 'not a manifest envelope' };
  }
  if (s.manifestVersion > MANIFEST_VERSION) {
    // Written by a newer server: refuse rather than misread it.
    return { problem: 'unsupported_version', detail: `version ${s.manifestVersion} is newer` };
  }
  if (digest(s.manifestVersion, s.manifest) !== s.sha256) {
    return { problem: 'checksum_mismatch', detail: 'sha256 of the content differs' };
  }
  return {
    stored: { manifestVersion: s.manifestVersion, sha256: s.sha256, manifest: s.manifest as M },
  };
}

/** Parses and proves a manifest file's text; a damaged one is DataLoss. */
export function parseManifest<M = unknown>(text: string): StoredManifest<M> {
  const result = checkManifest<M>(text);
  if ('stored' in result) return result.stored;
  if (result.problem === 'unsupported_version') {
    throw new StoreError('failed_precondition', `backup manifest ${result.detail}`);
  }
  throw new StoreError('data_loss', `backup manifest is corrupt: ${result.detail}`);
}

/** Reads and verifies a backup's manifest: NotFound when absent, DataLoss when it fails its sha256. */
export async function readManifest<M = unknown>(
  layout: ArtifactLayout,
  tenant: string,
  backupId: string,
): Promise<StoredManifest<M>> {
  let text: string;
  try {
    text = await readFile(layout.manifestPath(tenant, backupId), 'utf8');
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw notFound(`backup ${backupId} has no manifest in the artifact store`);
    }
    throw error;
  }
  return parseManifest<M>(text);
}

/** Directory names under `dir` that could be ids; a missing directory is simply empty. */
export async function listIdDirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory() && isSafeSegment(e.name))
      .map((e) => e.name)
      .sort();
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Walks the root (or one tenant) and returns every provable manifest plus the ones that are not.
 * Works from files alone, for catalog rebuild and cold restore after the database is gone.
 * Backup directories without manifest.json are not backups and appear in neither list.
 */
export async function listManifests<M = unknown>(
  layout: ArtifactLayout,
  tenant?: string,
): Promise<{ manifests: FoundManifest<M>[]; unreadable: UnreadableManifest[] }> {
  const tenants = tenant === undefined ? await listIdDirs(layout.root) : [tenant];
  const manifests: FoundManifest<M>[] = [];
  const unreadable: UnreadableManifest[] = [];
  for (const t of tenants) {
    for (const backupId of await listIdDirs(layout.tenantDir(t))) {
      const path = join(layout.backupDir(t, backupId), MANIFEST_FILE);
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') continue;
        const detail = `read failed (${errnoCode(error) ?? 'unknown'})`;
        unreadable.push({ tenant: t, backupId, path, problem: 'unreadable', detail });
        continue;
      }
      const result = checkManifest<M>(text);
      if ('stored' in result) manifests.push({ tenant: t, backupId, ...result.stored });
      else unreadable.push({ tenant: t, backupId, path, ...result });
    }
  }
  return { manifests, unreadable };
}
