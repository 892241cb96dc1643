/** Field checks shared by the start and restore forms; they mirror the server's own checks. */
import { overLengthError } from '../../../lib/forms/length-limit';

/** Capture page_size and restore apply_batch_size: blank → the server default, else 1–10 000. */
export const MAX_STEP = 10_000;
export const DEFAULT_STEP = 1_000;

/** The server's limits on names (it refuses longer ones with InvalidArgument, never cuts them). */
export const TREE_NAME_MAX = 128;
export const BACKUP_NAME_MAX = 200;

const TREE_NAME = /^[A-Za-z0-9._-]{1,128}$/;

/** A tenant-local tree name: 1–128 of A–Z a–z 0–9 . _ -, not "." or "..". */
export function treeNameError(value: string, what = 'Tree'): string | undefined {
  if (value === '') return `${what} is required`;
  const tooLong = overLengthError(value, TREE_NAME_MAX, `${what} name`);
  if (tooLong) return tooLong;
  if (!TREE_NAME.test(value) || value === '.' || value === '..') {
    return `${what} must be 1–128 characters of A–Z, a–z, 0–9, '.', '_' or '-'`;
  }
  return undefined;
}

/** A page or batch size as typed: blank is the server default (sent as 0). */
export function stepError(text: string, what: string): string | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > MAX_STEP) {
    return `${what} must be a whole number from 1 to ${formatStep(MAX_STEP)}`;
  }
  return undefined;
}

/** The number to send for a checked step field (0 asks for the server default). */
export function stepValue(text: string): number {
  return text.trim() === '' ? 0 : Number(text);
}

/** A capture throttle (entries a second) as typed: blank is unpaced, else 1 to 2^32 − 1. */
export function throttleError(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 0xffff_ffff) {
    return 'Throttle must be a whole number of entries a second, at least 1';
  }
  return undefined;
}

/** A backup name: 1–200 characters, not only spaces. */
export function backupNameError(value: string): string | undefined {
  if (value.trim() === '') return 'Name is required';
  const tooLong = overLengthError(value, BACKUP_NAME_MAX, 'A backup name');
  if (tooLong) return tooLong;
  return undefined;
}

/** An optional key prefix: at most 1 024 bytes, no NUL. */
export function keyPrefixError(value: string): string | undefined {
  if (value.includes('\0')) return 'Key prefix must not contain NUL';
  if (new TextEncoder().encode(value).length > 1024) return 'Key prefix is longer than 1024 bytes';
  return undefined;
}

function formatStep(value: number): string {
  return value.toLocaleString('en-US');
}
