import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where backup artifacts live (STORE_ARTIFACT_URL): a directory, or a bucket and key prefix in
 * S3-compatible object storage. Credentials never appear here: the AWS SDK's provider chain
 * supplies them (AWS_ACCESS_KEY_ID, profiles, instance roles).
 */
export type ArtifactLocation =
  | { kind: 'directory'; path: string }
  | {
      kind: 's3';
      bucket: string;
      /** Key prefix without leading or trailing `/`; '' for the bucket's root. */
      prefix: string;
    };

/** Thrown for an unusable location; ConfigError wraps it with the setting's name. */
export class ArtifactLocationError extends Error {
  override readonly name = 'ArtifactLocationError';
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * Parses a directory path (relative paths stay relative: the caller resolves them), a
 * `file:///absolute/path` URL or `s3://bucket[/prefix]`. Messages describe the problem without
 * echoing a value that carries credentials.
 */
export function parseArtifactLocation(raw: string): ArtifactLocation {
  const value = raw.trim();
  if (value === '') throw new ArtifactLocationError('must not be empty');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined || isAbsolute(value)) return { kind: 'directory', path: value };
  if (scheme === 'file') return parseFileUrl(value);
  if (scheme === 's3') return parseS3Url(value);
  throw new ArtifactLocationError(
    `must be a directory, a file:// URL or an s3://bucket/prefix URL, not a ${scheme}: URL`,
  );
}

function parseFileUrl(value: string): ArtifactLocation {
  let path: string;
  try {
    path = fileURLToPath(value);
  } catch (error) {
    throw new ArtifactLocationError(
      `${JSON.stringify(value)} is not a usable file:// URL (${(error as Error).message}); write file:///absolute/path or a plain path`,
    );
  }
  return { kind: 'directory', path };
}

function parseS3Url(value: string): ArtifactLocation {
  // Parsed by hand: URL would resolve `a/../b` to `b` and hide a prefix the servers refuse.
  if (!/^s3:\/\//i.test(value)) throw new ArtifactLocationError('write s3://bucket/prefix');
  const rest = value.slice('s3://'.length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const path = authorityEnd === -1 ? '' : rest.slice(authorityEnd);
  if (authority.includes('@')) {
    // Never echo the value: what stands before `@` is likely a secret.
    throw new ArtifactLocationError(
      's3:// URLs carry no credentials (use AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile or an instance role)',
    );
  }
  if (authority.includes(':')) {
    throw new ArtifactLocationError(
      'an s3:// URL names a bucket, not a server: put the server in STORE_S3_ENDPOINT',
    );
  }
  if (/[?#]/.test(path)) {
    throw new ArtifactLocationError(`${JSON.stringify(value)}: no ?query or #fragment allowed`);
  }
  const bucket = authority;
  if (!BUCKET.test(bucket) || bucket.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(bucket)) {
    throw new ArtifactLocationError(
      `${JSON.stringify(bucket)} is not an S3 bucket name (3–63 characters of a–z, 0–9, '.', '-', starting and ending with a letter or digit)`,
    );
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    throw new ArtifactLocationError(`${JSON.stringify(value)}: the prefix is not valid UTF-8`);
  }
  const prefix = decoded.replace(/^\/+/, '').replace(/\/+$/, '');
  const segments = prefix === '' ? [] : prefix.split('/');
  // Keys are paths on most S3-compatible servers (MinIO, rclone): `//`, `.` and `..` are refused
  // there, so they are refused here before any object is written.
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new ArtifactLocationError(
      `${JSON.stringify(value)}: the prefix must not contain empty, '.' or '..' segments`,
    );
  }
  if (prefix.length > 512) {
    throw new ArtifactLocationError('the prefix is longer than 512 characters');
  }
  return { kind: 's3', bucket, prefix };
}

/** The location as it is written in STORE_ARTIFACT_URL (for messages; it holds no secret). */
export function describeArtifactLocation(location: ArtifactLocation): string {
  if (location.kind === 'directory') return location.path;
  return `s3://${location.bucket}${location.prefix === '' ? '' : `/${location.prefix}`}`;
}

/**
 * STORE_S3_ENDPOINT: an http(s) URL of an S3-compatible server (MinIO, Ceph, rclone), without
 * credentials. Absent: AWS itself, found from the region.
 */
export function parseS3Endpoint(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ArtifactLocationError('is not a valid http:// or https:// URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw new ArtifactLocationError(
      'the endpoint URL carries no credentials (use AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile or an instance role)',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ArtifactLocationError(`must be an http:// or https:// URL, not ${url.protocol}`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ArtifactLocationError(`${JSON.stringify(raw)}: no ?query or #fragment allowed`);
  }
  return url.href.replace(/\/+$/, '');
}

/** STORE_S3_REGION: an AWS region name such as `us-east-1` (MinIO accepts any). */
export function parseS3Region(raw: string): string {
  const region = raw.trim();
  if (!/^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/.test(region)) {
    throw new ArtifactLocationError(
      `must be a region name such as us-east-1, got ${JSON.stringify(raw)}`,
    );
  }
  return region;
}
