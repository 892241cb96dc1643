import { invalidArgument } from '../../errors.js';
import { resolvePageSize } from '../../data/page-tokens.js';
import { keepReasons, protectedReason, type KeepReason } from './retention-plan.js';
import type { RetentionRules } from './retention-rules.js';
import type { ScopeEvaluation } from './scope-evaluation.js';

export type PreviewAction = 'DELETE' | 'KEEP';

/** What the last check found of a backup; UNVERIFIED when none has run. */
export type PreviewHealthStatus = 'HEALTHY' | 'DEGRADED' | 'CORRUPT' | 'MISSING' | 'UNVERIFIED';

/** A backup's health as a preview shows it. */
export interface PreviewHealth {
  status: PreviewHealthStatus;
  /** The last check's time; null when never checked. */
  checkedAt: number | null;
  /** When a check first found it damaged; null unless damaged. */
  damagedSince: number | null;
}

/** The stored health of a page's backups (as the storage reads it). */
export type HealthReader = (
  backupIds: string[],
) => Promise<
  ReadonlyMap<
    string,
    { status: string | null; checkedAt: number | null; damagedSince: number | null }
  >
>;

const KNOWN_STATUSES = new Set<string>(['HEALTHY', 'DEGRADED', 'CORRUPT', 'MISSING']);

/** One backup of a preview: what happens to it and, when kept, why. */
export interface PreviewEntry {
  backupId: string;
  name: string;
  createdAt: number;
  byteSize: number;
  baseBackupId: string | null;
  setId: string | null;
  action: PreviewAction;
  /** Empty for a deletion. */
  reasons: KeepReason[];
  protected: boolean;
  health: PreviewHealth;
}

export interface PreviewPageRequest {
  pageSize: number;
  pageToken: string;
  /** Only entries of this action; undefined: deletions first, then kept backups. */
  action?: PreviewAction | undefined;
}

/** A retention preview of one scope, with one page of its entries. */
export interface RetentionPreview {
  treeName: string;
  keyPrefix: string;
  rules: RetentionRules;
  configured: boolean;
  fingerprint: string;
  deleteCount: number;
  keepCount: number;
  bytesFreed: number;
  /** Sets with a member on either list. */
  setIds: string[];
  entries: PreviewEntry[];
  nextPageToken: string;
  previewedAt: number;
}

/** A page token: the fingerprint it belongs to and the offset into the entry list. */
function encodeToken(fingerprint: string, offset: number): string {
  return Buffer.from(`${fingerprint}:${offset}`).toString('base64url');
}

function decodeToken(token: string, fingerprint: string): number {
  if (token === '') return 0;
  const [fp, offsetText] = Buffer.from(token, 'base64url').toString().split(':');
  const offset = Number(offsetText);
  if (!fp || !Number.isInteger(offset) || offset < 0) {
    throw invalidArgument('page_token', 'not a token this server issued');
  }
  if (fp !== fingerprint) {
    throw invalidArgument(
      'page_token',
      'the scope changed since the first page of this preview; start again from the first page',
    );
  }
  return offset;
}

/**
 * The preview of an evaluation: totals of the whole plan, entries one page at a time. Names are
 * read (`readNames`) only for the page: its backups and those its keep reasons name; so is health
 * (`readHealth`). A damaged backup's health is the one the plan used, so a page never shows a
 * status the plan (and its fingerprint) did not see.
 */
export async function buildPreview(
  evaluation: ScopeEvaluation,
  page: PreviewPageRequest,
  now: number,
  readNames: (backupIds: string[]) => Promise<ReadonlyMap<string, string>>,
  readHealth: HealthReader,
  nameSubject: (subject: string) => Promise<string> = (subject) => Promise.resolve(subject),
): Promise<RetentionPreview> {
  const { plan, catalog, fingerprint } = evaluation;
  const limit = resolvePageSize(page.pageSize, { defaultSize: 500, maxSize: 5000 });
  const offset = decodeToken(page.pageToken, fingerprint);
  // The entries in order: deletions (unless only kept ones are asked), then kept backups.
  const deletions = page.action === 'KEEP' ? 0 : plan.deleted.length;
  const total = deletions + (page.action === 'DELETE' ? 0 : plan.kept.length);
  const slice: Array<{ position: number; action: PreviewAction }> = [];
  for (let i = offset; i < Math.min(total, offset + limit); i++) {
    slice.push(
      i < deletions
        ? { position: plan.deleted[i]!, action: 'DELETE' }
        : { position: plan.kept[i - deletions]!, action: 'KEEP' },
    );
  }
  const named = new Set<number>();
  for (const { position } of slice) {
    named.add(position);
    for (const r of plan.reasons[position] ?? []) if (r.named !== undefined) named.add(r.named);
  }
  const names = await readNames([...named].map((k) => catalog.ids[k]!));
  const nameOf = (k: number) => names.get(catalog.ids[k]!) ?? '';
  const stored = await readHealth(slice.map(({ position }) => catalog.ids[position]!));
  const healthOf = (k: number): PreviewHealth => {
    const found = stored.get(catalog.ids[k]!);
    const damage = catalog.damaged.get(k);
    const checkedAt = found?.checkedAt ?? null;
    if (damage) return { status: damage.status, checkedAt, damagedSince: damage.since };
    // A check that ended after the plan was read shows what it found; the fingerprint has
    // moved with it, so an apply of this preview is refused.
    const status = found?.status ?? null;
    return {
      status:
        status !== null && KNOWN_STATUSES.has(status)
          ? (status as PreviewHealthStatus)
          : 'UNVERIFIED',
      checkedAt,
      damagedSince: found?.damagedSince ?? null,
    };
  };
  // A protection's author by name, as the console's "By" columns (the plan keeps the subject,
  // which its fingerprint covers; a token renamed later does not make a preview stale).
  const people = new Map<string, string>();
  for (const { position } of slice) {
    const by = catalog.protections.get(position)?.by;
    if (by !== undefined && !people.has(by)) people.set(by, await nameSubject(by));
  }
  const reasonsOf = (k: number): KeepReason[] => {
    const protection = catalog.protections.get(k);
    return keepReasons(plan, k, nameOf).map((r) =>
      r.kind === 'protected' && protection
        ? { ...r, text: protectedReason(people.get(protection.by)!, protection.reason) }
        : r,
    );
  };
  const setIds = new Set<string>();
  for (const setId of catalog.setIds) if (setId) setIds.add(setId);
  return {
    treeName: evaluation.scope.treeName,
    keyPrefix: evaluation.scope.keyPrefix,
    rules: evaluation.rules,
    configured: evaluation.stored !== undefined,
    fingerprint,
    deleteCount: plan.deleted.length,
    keepCount: plan.kept.length,
    bytesFreed: plan.bytesFreed,
    setIds: [...setIds].sort(),
    entries: slice.map(({ position: k, action }) => ({
      backupId: catalog.ids[k]!,
      name: nameOf(k),
      createdAt: catalog.createdAt[k]!,
      byteSize: catalog.byteSizes[k]!,
      baseBackupId: catalog.baseIds[k] ?? null,
      setId: catalog.setIds[k] ?? null,
      action,
      reasons: action === 'KEEP' ? reasonsOf(k) : [],
      protected: catalog.protections.has(k),
      health: healthOf(k),
    })),
    nextPageToken: offset + limit < total ? encodeToken(fingerprint, offset + limit) : '',
    previewedAt: now,
  };
}
