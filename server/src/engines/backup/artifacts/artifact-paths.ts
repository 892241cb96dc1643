import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { invalidArgument } from '../../errors.js';

/** Suffix of a finished artifact file. */
export const ARTIFACT_SUFFIX = '.ndjson.gz';
/** Name of a backup's manifest inside its directory. */
export const MANIFEST_FILE = 'manifest.json';
/** Prefix of every file still being written; anything with it is a leftover after a crash. */
export const TEMP_PREFIX = '.tmp-';

// DESIGN.md §4: ids on the wire are 1–128 chars of [A-Za-z0-9._-], never `.` or `..`. Holding
// tenant and backup ids to the same rule makes each one exactly one path segment, so no id can
// climb out of (or sideways within) the artifact root.
const SEGMENT = /^[A-Za-z0-9._-]{1,128}$/;

/** Throws InvalidArgument unless `value` is one safe path segment. */
export function assertSafeSegment(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string' || !SEGMENT.test(value) || value === '.' || value === '..') {
    throw invalidArgument(field, 'must be 1-128 characters of [A-Za-z0-9._-], not . or ..');
  }
}

/** Whether a directory name found on disk could be a tenant or backup id. */
export function isSafeSegment(value: string): boolean {
  return SEGMENT.test(value) && value !== '.' && value !== '..';
}

/** Throws InvalidArgument unless `value` can name an artifact file. */
export function assertArtifactId(value: unknown, field = 'artifact_id'): asserts value is string {
  assertSafeSegment(value, field);
  // A leading dot would hide the file and could collide with the temp-file prefix.
  if (value.startsWith('.')) throw invalidArgument(field, 'must not start with "."');
}

/** The id of the n-th (1-based) artifact of a backup: `part-00001`. */
export function partArtifactId(n: number): string {
  return `part-${String(n).padStart(5, '0')}`;
}

/** The artifact root the server uses when none is configured: `${STORE_DATA_DIR}/artifacts`. */
export function defaultArtifactRoot(dataDir: string): string {
  return join(dataDir, 'artifacts');
}

/** Segments of absolute `path` below absolute `base`; null when it is `base` or outside it. */
export function segmentsBelow(base: string, path: string): string[] | null {
  const rel = relative(base, path);
  if (rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith('..' + sep)) return null;
  return rel.split(sep);
}

/** Maps tenants, backups and artifacts to paths under one root, validating every id. */
export class ArtifactLayout {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** `<root>/<tenant>`. */
  tenantDir(tenant: string): string {
    assertSafeSegment(tenant, 'tenant');
    return join(this.root, tenant);
  }

  /** `<root>/<tenant>/<backupId>`. */
  backupDir(tenant: string, backupId: string): string {
    assertSafeSegment(backupId, 'backup_id');
    return join(this.tenantDir(tenant), backupId);
  }

  /** `<root>/<tenant>/<backupId>/<artifactId>.ndjson.gz`. */
  artifactPath(tenant: string, backupId: string, artifactId: string): string {
    assertArtifactId(artifactId);
    return join(this.backupDir(tenant, backupId), artifactId + ARTIFACT_SUFFIX);
  }

  /** `<root>/<tenant>/<backupId>/manifest.json`. */
  manifestPath(tenant: string, backupId: string): string {
    return join(this.backupDir(tenant, backupId), MANIFEST_FILE);
  }

  /** Path segments of `path` below the root, or null when it is the root or outside it. */
  segmentsInside(path: string): string[] | null {
    return segmentsBelow(this.root, resolve(this.root, path));
  }
}
