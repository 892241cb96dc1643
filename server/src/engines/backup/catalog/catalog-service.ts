import type { Storage } from '../../../storage/database.js';
import {
  deleteBackupRows,
  getBackupRow,
  listBackupRows,
  listDirectDependants,
  listSetMembers,
  type BackupFilter,
} from '../../../storage/backup/backup-store.js';
import {
  getProtections,
  lockBackupRows,
} from '../../../storage/backup/lifecycle/backup-protection-store.js';
import { withTransaction } from '../../../storage/data/tree-db.js';
import { invalidArgument } from '../../errors.js';
import { validateTreeName } from '../../data/tree-names.js';
import type { ArtifactStore } from '../artifacts/index.js';
import type { CatalogEntry } from '../backup-types.js';
import {
  protectedRefusal,
  UNNAMED_SUBJECTS,
  type SubjectNamer,
} from '../lifecycle/protection-refusal.js';
import { dependantsRefusal } from './dependants-refusal.js';
import {
  DEFAULT_CATALOG_PAGE,
  MAX_CATALOG_PAGE,
  stepSize,
  validateBackupId,
} from '../validation.js';
import { deleteBackupBatch, presentFiles, type BatchDeleteResult } from './catalog-batch-delete.js';
import { toCatalogEntry } from './catalog-entry.js';

export interface CatalogPage {
  entries: CatalogEntry[];
  nextPageToken: string;
}

export interface DescribedBackup {
  entry: CatalogEntry;
  /** full → … → this, in apply order. */
  chain: string[];
  setMembers: string[];
  /** Every backup whose chain runs through this one. */
  dependants: string[];
}

function encodeToken(createdAt: number, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
}

function decodeToken(token: string): { createdAt: number; id: string } {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(token, 'base64url').toString()) as unknown[];
    if (typeof createdAt === 'number' && typeof id === 'string') return { createdAt, id };
  } catch {
    // fall through
  }
  throw invalidArgument('page_token', 'is not a token this server issued');
}

/** A catalog filter whose names are checked like everywhere else (DESIGN.md §4: InvalidArgument). */
function validFilter(filter: BackupFilter): BackupFilter {
  const { treeName, setId, nameContains } = filter;
  if (treeName !== undefined) validateTreeName(treeName, 'tree_id');
  if (setId !== undefined) validateBackupId(setId, 'set_id');
  if (nameContains !== undefined && nameContains.length > 200) {
    throw invalidArgument('name_contains', 'is longer than 200 characters');
  }
  return filter;
}

/** Catalog reads and deletes over the backups table and the artifact store. */
export class CatalogService {
  constructor(
    private readonly storage: Storage,
    private readonly artifacts: ArtifactStore,
    /** Names the author of a protection in a refusal (a token by its name). */
    private readonly names: SubjectNamer = UNNAMED_SUBJECTS,
  ) {}

  /** A keyset page of the tenant's catalog, newest first. */
  async list(
    tenant: string,
    request: { pageSize: number; pageToken: string; filter: BackupFilter },
  ): Promise<CatalogPage> {
    const limit = stepSize(request.pageSize, 'page_size', DEFAULT_CATALOG_PAGE, MAX_CATALOG_PAGE);
    const after = request.pageToken ? decodeToken(request.pageToken) : undefined;
    const rows = await listBackupRows(this.storage, tenant, validFilter(request.filter), {
      after,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      entries: page.map(toCatalogEntry),
      nextPageToken: rows.length > limit && last ? encodeToken(last.createdAt, last.id) : '',
    };
  }

  /** Drains the tenant's catalog page by page (StreamBackups). */
  async *stream(tenant: string, signal?: AbortSignal): AsyncGenerator<CatalogEntry> {
    let token = '';
    do {
      if (signal?.aborted) return;
      const page = await this.list(tenant, { pageSize: 200, pageToken: token, filter: {} });
      yield* page.entries;
      token = page.nextPageToken;
    } while (token !== '');
  }

  /** A backup with its chain, set members and dependants; undefined when absent. */
  /** A backup's name, or undefined when the tenant has no such backup (one row read). */
  async nameOf(tenant: string, backupId: string): Promise<string | undefined> {
    validateBackupId(backupId);
    const row = await getBackupRow(this.storage, tenant, backupId);
    return row ? toCatalogEntry(row).manifest.name : undefined;
  }

  async describe(tenant: string, backupId: string): Promise<DescribedBackup | undefined> {
    validateBackupId(backupId);
    const row = await getBackupRow(this.storage, tenant, backupId);
    if (!row) return undefined;
    const chain = [row.id];
    for (let base = row.baseBackupId; base !== null;) {
      if (chain.includes(base)) break;
      chain.unshift(base);
      const baseRow = await getBackupRow(this.storage, tenant, base);
      base = baseRow?.baseBackupId ?? null;
    }
    return {
      entry: toCatalogEntry(row),
      chain,
      setMembers: row.setId ? await listSetMembers(this.storage, tenant, row.setId) : [],
      dependants: await this.dependantsOf(tenant, backupId),
    };
  }

  /** Every backup whose chain runs through `backupId`, nearest first. */
  async dependantsOf(tenant: string, backupId: string): Promise<string[]> {
    const found: string[] = [];
    const queue = [backupId];
    while (queue.length > 0) {
      const next = queue.shift() ?? '';
      for (const id of await listDirectDependants(this.storage, tenant, next)) {
        if (!found.includes(id)) {
          found.push(id);
          queue.push(id);
        }
      }
    }
    return found;
  }

  /**
   * Deletes a backup (row first, then files: a crash in between leaves an orphan scrub can
   * prune, never a row whose artifacts are gone). Refused while incrementals depend on it,
   * unless `cascade` (DESIGN.md §3), and while any backup it would remove is protected (backup
   * lifecycle: a protected backup and its chain stay until unprotected). Returns the ids removed;
   * empty when it was absent.
   */
  async delete(tenant: string, backupId: string, cascade: boolean): Promise<string[]> {
    validateBackupId(backupId);
    const row = await getBackupRow(this.storage, tenant, backupId);
    if (!row) return [];
    const dependants = await this.dependantsOf(tenant, backupId);
    if (dependants.length > 0 && !cascade) {
      throw await dependantsRefusal(this.storage, tenant, row, dependants);
    }
    // Dependants first (deepest last found), so no row ever names a base that is gone.
    const ids = [...dependants.reverse(), backupId];
    // The rows locked first: a protection made meanwhile either lands before (and refuses this)
    // or finds the backup gone.
    const outcome = await withTransaction(this.storage, async (tx) => {
      await lockBackupRows(tx, tenant, ids);
      const held = await getProtections(tx, tenant, ids);
      if (held.length > 0) return { held };
      const present = await presentFiles(tx, tenant, ids);
      await deleteBackupRows(tx, tenant, ids);
      return { files: [...present.values()] };
    });
    // Worded after the transaction: naming a person reads outside it (SQLite has one writer).
    if (outcome.held) {
      throw await protectedRefusal(this.storage, tenant, backupId, outcome.held, this.names);
    }
    await this.artifacts.deleteManyBackupFiles(tenant, outcome.files);
    return ids;
  }

  /**
   * Deletes many backups without cascade, rows in one transaction (retention's apply, ids
   * dependants first); those a backup outside the batch still needs are left and returned.
   */
  deleteBatch(tenant: string, ids: readonly string[]): Promise<BatchDeleteResult> {
    return deleteBackupBatch(this.storage, this.artifacts, tenant, ids, this.names);
  }
}
