import type { StoredDifference } from '../../../storage/backup/backup-comparison-store.js';
import {
  tenantDifferenceBytes,
  type DifferenceStorageRow,
} from '../../../storage/backup/difference-storage-store.js';
import type { TreeDb } from '../../../storage/data/tree-db.js';
import { StoreError, failedPrecondition } from '../../errors.js';
import { momentWords } from '../../words.js';

/**
 * Preview storage (docs/security.md, "Preview storage"): a restore preview, backup diff or revert
 * preview stores only the first differences in key order, up to a row and a byte cap, keeps them
 * a limited time unless an admin keeps them, and a tenant's stored differences together are
 * capped. Without these a viewer's previews copied every value of a backup per run.
 */
export interface DifferenceStorageLimits {
  /** Differences stored per comparison. */
  maxRows: number;
  /** Bytes (keys and values, UTF-8) stored per comparison. */
  maxBytes: number;
  /** How long stored differences stay unless kept, ms. */
  ttlMs: number;
  /** Bytes of stored differences per tenant, kept ones included. */
  tenantMaxBytes: number;
}

export const DEFAULT_DIFFERENCE_LIMITS: DifferenceStorageLimits = {
  maxRows: 10_000,
  maxBytes: 16 * 1024 * 1024,
  ttlMs: 86_400_000,
  tenantMaxBytes: 256 * 1024 * 1024,
};

/** The bytes one stored difference costs: its key and both values, as UTF-8. */
export function differenceBytes(d: StoredDifference): number {
  return (
    Buffer.byteLength(d.key) +
    (d.beforeJson === null ? 0 : Buffer.byteLength(d.beforeJson)) +
    (d.afterJson === null ? 0 : Buffer.byteLength(d.afterJson))
  );
}

/**
 * What one comparison may still store. Differences arrive in key order, so taking each page's
 * prefix that fits stores exactly the first differences of the comparison: a listing of the
 * stored rows is a correct listing up to where it stops.
 */
export class DifferenceBudget {
  private rows: number;
  private bytes: number;
  private full = false;

  constructor(rows: number, bytes: number) {
    this.rows = Math.max(0, rows);
    this.bytes = Math.max(0, bytes);
  }

  /** Nothing more will be stored: the rest of the comparison is only counted. */
  get exhausted(): boolean {
    return this.full || this.rows === 0 || this.bytes === 0;
  }

  /** Lowers the bytes left to at most `bytes` (the tenant's room, read again before a page). */
  limitBytes(bytes: number): void {
    this.bytes = Math.min(this.bytes, Math.max(0, bytes));
  }

  /** The prefix of `page` that fits, its bytes, and whether some of the page was left out. */
  take(page: readonly StoredDifference[]): {
    kept: StoredDifference[];
    bytes: number;
    truncated: boolean;
  } {
    const kept: StoredDifference[] = [];
    let bytes = 0;
    for (const d of page) {
      if (this.full) break;
      const cost = differenceBytes(d);
      if (this.rows === 0 || cost > this.bytes) {
        this.full = true;
        break;
      }
      this.rows -= 1;
      this.bytes -= cost;
      bytes += cost;
      kept.push(d);
    }
    return { kept, bytes, truncated: kept.length < page.length };
  }
}

function megabytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${bytes} bytes` : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/**
 * Refuses a new comparison unless `tenant` has room under its cap for one comparison's stored
 * bytes (STORE_PREVIEW_MAX_STORED_BYTES, or the tenant cap if smaller): ResourceExhausted naming
 * the cap and when room frees up (the earliest expiry, or releasing a kept comparison). Asking
 * for a whole comparison's room, not just any, is what makes the refusal reachable: a run stores
 * only what fits (runBudget), so the total approaches the cap without passing it.
 */
export async function ensureTenantRoom(
  handle: TreeDb,
  tenant: string,
  limits: DifferenceStorageLimits,
  now: number,
): Promise<void> {
  const { bytes, nextExpiry } = await tenantDifferenceBytes(handle, tenant, now);
  const needed = Math.min(limits.maxBytes, limits.tenantMaxBytes);
  if (limits.tenantMaxBytes - bytes >= needed) return;
  const when =
    nextExpiry === null
      ? 'release a kept preview or diff (KeepBackupComparison with release) to free room'
      : `retry after ${momentWords(nextExpiry)}, when the oldest expire`;
  throw new StoreError(
    'resource_exhausted',
    `the tenant's previews and diffs store ${megabytes(bytes)} of differences; a new one needs ` +
      `${megabytes(needed)} under the tenant's cap of ${megabytes(limits.tenantMaxBytes)} ` +
      `(STORE_PREVIEW_TENANT_MAX_BYTES); ${when}`,
  );
}

/**
 * The budget of a comparison that starts running: its own caps, or less when the tenant is near
 * its cap. A run never fails for want of room (it was admitted): it stores what fits, possibly
 * nothing, and its counts stay exact.
 */
export async function runBudget(
  handle: TreeDb,
  tenant: string,
  limits: DifferenceStorageLimits,
  now: number,
): Promise<DifferenceBudget> {
  const budget = new DifferenceBudget(limits.maxRows, limits.maxBytes);
  await fitTenantRoom(budget, handle, tenant, limits, now);
  return budget;
}

/**
 * Lowers a running comparison's budget to the tenant's room now (what other comparisons stored
 * meanwhile counts), before each page it stores: comparisons running at once then pass the
 * tenant's cap by at most the one page each stores between its check and its insert.
 */
export async function fitTenantRoom(
  budget: DifferenceBudget,
  handle: TreeDb,
  tenant: string,
  limits: DifferenceStorageLimits,
  now: number,
): Promise<void> {
  const { bytes } = await tenantDifferenceBytes(handle, tenant, now);
  budget.limitBytes(limits.tenantMaxBytes - bytes);
}

/** When a comparison's differences expired, or undefined while they can still be listed. */
export function expiredAt(row: DifferenceStorageRow, now: number): number | undefined {
  if (row.expiresAt !== null && row.expiresAt <= now) return row.expiresAt;
  if (row.sweptAt !== null) return row.sweptAt;
  return undefined;
}

const NOUNS = {
  RESTORE_PREVIEW: 'restore preview',
  BACKUP_DIFF: 'backup diff',
  REVERT_PREVIEW: 'revert preview',
} as const;

/** FailedPrecondition for a comparison whose differences expired. */
export function differencesExpired(kind: keyof typeof NOUNS, at: number): StoreError {
  return failedPrecondition(
    `the differences of this ${NOUNS[kind]} expired at ${momentWords(at)}; run it again`,
  );
}

/** What the report says of the stored differences. */
export interface DifferenceStorageView {
  stored: number;
  storedBytes: number;
  truncated: boolean;
  /** Null while kept. */
  expiresAt: number | null;
  kept: boolean;
  expired: boolean;
}

export function storageView(row: DifferenceStorageRow, now: number): DifferenceStorageView {
  return {
    stored: row.storedCount,
    storedBytes: row.storedBytes,
    truncated: row.truncated,
    expiresAt: row.expiresAt,
    kept: row.expiresAt === null,
    expired: expiredAt(row, now) !== undefined,
  };
}
