import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { StoreError, isStoreError } from '../../errors.js';
import { TEMP_PREFIX } from './artifact-paths.js';

/** The code of a Node system error, if it is one. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * What an operator can fix about the artifact folder, in words: these reach the operation's
 * error (and the alerts and notifications that quote it) instead of "an internal error". The
 * path stays out: it is the server's layout, not the tenant's business; the errno says enough.
 */
const FOLDER_FAULTS: Readonly<Record<string, string>> = {
  EACCES:
    'the artifact store may not write its files (permission denied): check the owner and mode of the artifact folder',
  EPERM:
    'the artifact store may not write its files (operation not permitted): check the owner and mode of the artifact folder',
  EROFS: 'the artifact store is on a read-only file system',
  ENOTDIR: 'the artifact store cannot make its folder: a file stands where a folder should be',
  EEXIST: 'the artifact store cannot make its folder: a file stands where a folder should be',
};

/**
 * Turns a file-system failure into what the engines report: a full disk (or quota) is
 * ResourceExhausted (DESIGN.md §3 Errors, "over a size limit"); a folder the server may not
 * write is FailedPrecondition (the operator must fix it first); StoreErrors pass unchanged; any
 * other fault stays as it is so the transport logs it and answers Internal.
 */
export function mapWriteError(error: unknown): unknown {
  if (isStoreError(error)) return error;
  const code = errnoCode(error);
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new StoreError('resource_exhausted', 'the artifact store is out of disk space');
  }
  const fault = code === undefined ? undefined : FOLDER_FAULTS[code];
  if (fault !== undefined) return new StoreError('failed_precondition', fault);
  return error;
}

/** The error a cancelled read or write throws. */
export function cancelledError(): StoreError {
  return new StoreError('cancelled', 'the artifact operation was cancelled');
}

/** Throws `cancelled` when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError();
}

/** A fresh temp-file name in the same directory, so the final rename never crosses devices. */
export function tempName(label: string): string {
  return `${TEMP_PREFIX}${label}-${randomBytes(6).toString('hex')}`;
}

/**
 * fsyncs a directory so a rename or a new entry in it survives a power cut. Some platforms
 * (Windows, a few network file systems) refuse to open or sync directories; there the rename is
 * as durable as the platform allows, so those refusals are ignored.
 */
export async function fsyncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM' && code !== 'EACCES') {
      throw error;
    }
  } finally {
    await handle?.close();
  }
}

/**
 * Artifacts and manifests hold every tenant's data: readable by the server's user only. A
 * directory made by mkdir -p gets this mode at every level it creates.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** mkdir -p, fsyncing the parent of every directory it created so the new entries are durable. */
export async function ensureDirectory(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) return;
  // `first` is the top-most directory created; sync its parent and each created level's parent.
  for (let d = dir; ; d = dirname(d)) {
    await fsyncDirectory(dirname(d));
    if (d === first || dirname(d) === d) break;
  }
}

/** Deletes a file, ignoring "already gone"; used on cleanup paths that must not mask errors. */
export async function removeQuietly(path: string): Promise<void> {
  await rm(path, { force: true }).catch(() => undefined);
}

/** Writes `content` to `dir/name` atomically: temp file → fsync → rename → fsync directory. */
export async function atomicWriteFile(dir: string, name: string, content: string): Promise<void> {
  const temp = join(dir, tempName(name));
  try {
    const handle = await open(temp, 'wx', PRIVATE_FILE_MODE);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, join(dir, name));
  } catch (error) {
    await removeQuietly(temp);
    throw mapWriteError(error);
  }
  await fsyncDirectory(dir).catch((error: unknown) => {
    throw mapWriteError(error);
  });
}
