import { invalidArgument } from '../../errors.js';
import { resolvePageSize } from '../../data/page-tokens.js';
import type { KeepReason } from './retention-plan.js';
import type { RetentionRules } from './retention-rules.js';
import type { ScopeEvaluation } from './scope-evaluation.js';

export type PreviewAction = 'DELETE' | 'KEEP';

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

/** The preview of an evaluation: totals of the whole plan, entries one page at a time. */
export function buildPreview(
  evaluation: ScopeEvaluation,
  page: PreviewPageRequest,
  now: number,
): RetentionPreview {
  const { plan, rows, fingerprint } = evaluation;
  const limit = resolvePageSize(page.pageSize, { defaultSize: 500, maxSize: 5000 });
  const offset = decodeToken(page.pageToken, fingerprint);
  const rowById = new Map(rows.map((r) => [r.id, r]));
  const ordered: Array<{ id: string; action: PreviewAction; reasons: KeepReason[] }> = [];
  if (page.action !== 'KEEP') {
    for (const id of plan.deleted) ordered.push({ id, action: 'DELETE', reasons: [] });
  }
  if (page.action !== 'DELETE') {
    for (const k of plan.kept) ordered.push({ id: k.id, action: 'KEEP', reasons: k.reasons });
  }
  const slice = ordered.slice(offset, offset + limit);
  const setIds = new Set<string>();
  for (const r of rows) if (r.setId) setIds.add(r.setId);
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
    entries: slice.map((e) => {
      const row = rowById.get(e.id);
      return {
        backupId: e.id,
        name: row?.name ?? '',
        createdAt: row?.createdAt ?? 0,
        byteSize: row?.byteSize ?? 0,
        baseBackupId: row?.baseBackupId ?? null,
        setId: row?.setId ?? null,
        action: e.action,
        reasons: e.reasons,
        protected: row?.protection !== undefined,
      };
    }),
    nextPageToken: offset + limit < ordered.length ? encodeToken(fingerprint, offset + limit) : '',
    previewedAt: now,
  };
}
