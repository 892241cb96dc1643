import type { Storage } from '../../storage/database.js';
import {
  deleteEntry,
  getLiveEntry,
  listLiveEntries,
  listTrees,
  type StoredEntry,
} from '../../storage/data/tree-store.js';
import { invalidArgument } from '../errors.js';
import { GroupCommitQueue } from './group-commit-queue.js';
import { decodeKeyToken, encodeKeyToken, resolvePageSize } from './page-tokens.js';
import {
  batchOf,
  commitTreeGroup,
  lockedError,
  type BatchWriteGuard,
  type GroupCommitInfo,
  type PutEntryResult,
  type TreeWriteRequest,
  type WriteGuard,
} from './tree-group-writer.js';
import {
  validateEntryKey,
  validateKeyPrefix,
  validateTenantId,
  validateTreeName,
} from './tree-names.js';
import { prepareWrite } from './write-preparation.js';

export type {
  BatchWriteGuard,
  GroupCommitInfo,
  GuardedWrite,
  PutEntryResult,
  WriteGuard,
  WriteVerdict,
} from './tree-group-writer.js';

/** Largest canonical value accepted by default. */
export const DEFAULT_MAX_VALUE_BYTES = 256 * 1024;

/** Per-tree facts other engines own, fetched once per listed page. */
export interface TreeAnnotation {
  hasPolicy: boolean;
  deadLetterCount: number;
}

/** Annotations for some of a tenant's trees; missing names mean no policy, no dead letters. */
export type TreeAnnotations = (
  tenant: string,
  names: string[],
) => Promise<Map<string, TreeAnnotation>>;

export interface TreeDataEngineOptions {
  storage: Storage;
  clock?: () => number;
  maxValueBytes?: number;
  /** The single-write guard; `batchWriteGuard` wins when both are given. */
  writeGuard?: WriteGuard;
  batchWriteGuard?: BatchWriteGuard;
  treeAnnotations?: TreeAnnotations;
  /** Called after each group commit (tests count commits through it). */
  onGroupCommit?: (info: GroupCommitInfo) => void;
}

/** Most entries one PutEntries call may carry. */
export const MAX_PUT_ENTRIES = 1000;

/** Most entries one group commit takes (a larger PutEntries still commits whole). */
const MAX_GROUP_ENTRIES = 2000;

/** An entry of a PutEntries call, as sent. */
export interface EntryToPut {
  key: string;
  valueJson: string;
}

/** A live entry as callers see it. */
export interface TreeEntry {
  key: string;
  valueJson: string;
  sequence: number;
  schemaVersion: number;
  updatedAt: number;
}

export interface TreeListing {
  treeId: string;
  entryCount: number;
  hasPolicy: boolean;
  deadLetterCount: number;
  updatedAt: number;
}

export interface PageRequest {
  pageSize?: number;
  pageToken?: string;
}

const applyAll: BatchWriteGuard = async (_tree, writes) =>
  writes.map(() => ({ apply: true, schemaVersion: 0 }));

const toTreeEntry = (entry: StoredEntry): TreeEntry => ({
  key: entry.key,
  valueJson: entry.valueJson ?? 'null',
  sequence: entry.sequence,
  schemaVersion: entry.schemaVersion,
  updatedAt: entry.updatedAt,
});

const isValid = (check: (value: string) => unknown) => (value: string) => {
  try {
    check(value);
    return true;
  } catch {
    return false;
  }
};

/** Reads and writes tree entries for one tenant at a time; no SQL, no transport. */
export class TreeDataEngine {
  private readonly storage: Storage;
  private readonly clock: () => number;
  private readonly maxValueBytes: number;
  private readonly treeAnnotations: TreeAnnotations | undefined;
  private readonly queue: GroupCommitQueue<TreeWriteRequest, PutEntryResult[]>;

  constructor(options: TreeDataEngineOptions) {
    this.storage = options.storage;
    this.clock = options.clock ?? Date.now;
    this.maxValueBytes = options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
    this.treeAnnotations = options.treeAnnotations;
    const guard =
      options.batchWriteGuard ?? (options.writeGuard ? batchOf(options.writeGuard) : applyAll);
    const writer = {
      storage: this.storage,
      clock: this.clock,
      maxValueBytes: this.maxValueBytes,
      guard,
      onCommit: options.onGroupCommit,
    };
    this.queue = new GroupCommitQueue({
      commit: (requests, locked) => commitTreeGroup(writer, requests, locked),
      weight: (request) => request.writes.length,
      maxWeight: MAX_GROUP_ENTRIES,
    });
  }

  /**
   * Writes one entry (creating the tree on first write), unless the guard dead-letters it.
   * Concurrent puts to one tree share a commit (group commit); each resolves once it is durable.
   */
  async putEntry(
    tenant: string,
    treeName: string,
    key: string,
    valueJson: string,
  ): Promise<PutEntryResult> {
    validateTenantId(tenant);
    validateTreeName(treeName);
    const write = prepareWrite(key, valueJson, this.maxValueBytes);
    const [result] = await this.submit({ tenant, treeName, writes: [write] });
    if (!result) throw new Error('a put settled without its result');
    return result;
  }

  /**
   * Writes up to MAX_PUT_ENTRIES entries to one tree in one transaction with one consecutive
   * sequence range, the guard asked per entry (a refused entry is dead-lettered, not written).
   * A bad key or value refuses the whole call, naming the entry (`entries[i].…`).
   */
  async putEntries(
    tenant: string,
    treeName: string,
    entries: readonly EntryToPut[],
  ): Promise<PutEntryResult[]> {
    validateTenantId(tenant);
    validateTreeName(treeName);
    if (entries.length > MAX_PUT_ENTRIES) {
      throw invalidArgument(
        'entries',
        `${entries.length} entries is over the limit of ${MAX_PUT_ENTRIES} per call`,
      );
    }
    if (entries.length === 0) return [];
    const writes = entries.map((entry, i) =>
      prepareWrite(entry.key, entry.valueJson, this.maxValueBytes, {
        key: `entries[${i}].key`,
        value: `entries[${i}].value_json`,
      }),
    );
    return this.submit({ tenant, treeName, writes });
  }

  private submit(request: TreeWriteRequest): Promise<PutEntryResult[]> {
    // NUL cannot occur in a tenant id or tree name, so the key is unambiguous.
    return this.queue.submit(`${request.tenant}\0${request.treeName}`, request);
  }

  /** The live entry under `key`, or undefined (also when the tree does not exist). */
  async getEntry(tenant: string, treeName: string, key: string): Promise<TreeEntry | undefined> {
    validateTenantId(tenant);
    validateTreeName(treeName);
    validateEntryKey(key);
    const entry = await getLiveEntry(this.storage, tenant, treeName, key);
    return entry && toTreeEntry(entry);
  }

  /** Tombstones a live entry; false when there was nothing live to delete. */
  async deleteEntry(tenant: string, treeName: string, key: string): Promise<boolean> {
    validateTenantId(tenant);
    validateTreeName(treeName);
    validateEntryKey(key);
    const outcome = await deleteEntry(this.storage, { tenant, treeName, key, now: this.clock() });
    if (outcome.status === 'locked') throw lockedError(treeName, outcome.lockedBy, 'delete');
    return outcome.status === 'deleted';
  }

  /** One page of live entries in byte order of key, optionally under a key prefix. */
  async listEntries(
    tenant: string,
    treeName: string,
    request: PageRequest & { keyPrefix?: string },
  ): Promise<{ entries: TreeEntry[]; nextPageToken: string }> {
    validateTenantId(tenant);
    validateTreeName(treeName);
    const keyPrefix = validateKeyPrefix(request.keyPrefix);
    const pageSize = resolvePageSize(request.pageSize);
    const afterKey = decodeKeyToken(request.pageToken, isValid(validateEntryKey));
    // One extra row tells whether another page exists without a second query.
    const rows = await listLiveEntries(this.storage, tenant, treeName, {
      keyPrefix,
      afterKey,
      limit: pageSize + 1,
    });
    const page = rows.slice(0, pageSize);
    const last = page.at(-1);
    return {
      entries: page.map(toTreeEntry),
      nextPageToken: rows.length > pageSize && last ? encodeKeyToken(last.key) : '',
    };
  }

  /** One page of the tenant's trees by name, with entry counts and annotations. */
  async listTrees(
    tenant: string,
    request: PageRequest,
  ): Promise<{ trees: TreeListing[]; nextPageToken: string }> {
    validateTenantId(tenant);
    const pageSize = resolvePageSize(request.pageSize);
    const afterName = decodeKeyToken(request.pageToken, isValid(validateTreeName));
    const rows = await listTrees(this.storage, tenant, { afterName, limit: pageSize + 1 });
    const page = rows.slice(0, pageSize);
    const annotations =
      this.treeAnnotations && page.length > 0
        ? await this.treeAnnotations(
            tenant,
            page.map((tree) => tree.name),
          )
        : new Map<string, TreeAnnotation>();
    const last = page.at(-1);
    return {
      trees: page.map((tree) => ({
        treeId: tree.name,
        entryCount: tree.entryCount,
        hasPolicy: annotations.get(tree.name)?.hasPolicy ?? false,
        deadLetterCount: annotations.get(tree.name)?.deadLetterCount ?? 0,
        updatedAt: tree.updatedAt,
      })),
      nextPageToken: rows.length > pageSize && last ? encodeKeyToken(last.name) : '',
    };
  }
}
