import type { Storage } from '../../storage/database.js';
import {
  deleteEntry,
  getLiveEntry,
  listLiveEntries,
  listTrees,
  putEntry,
  resolveTree,
  type StoredEntry,
} from '../../storage/tree-store.js';
import { StoreError, failedPrecondition, invalidArgument } from '../errors.js';
import { MAX_JSON_DEPTH, canonicalJson } from './canonical-json.js';
import { decodeKeyToken, encodeKeyToken, resolvePageSize } from './page-tokens.js';
import {
  validateEntryKey,
  validateKeyPrefix,
  validateTenantId,
  validateTreeName,
} from './tree-names.js';

/** Largest canonical value accepted by default. */
export const DEFAULT_MAX_VALUE_BYTES = 256 * 1024;

/** A write the guard is asked about; `value` is the parsed JSON. */
export interface GuardedWrite {
  tenant: string;
  treeName: string;
  key: string;
  value: unknown;
}

/**
 * The guard's verdict. `value`, when given, is stored instead of the written one (a schema
 * engine migrating on write); it is canonicalised and size-checked like the original.
 */
export type WriteVerdict =
  | { apply: true; schemaVersion: number; value?: unknown }
  | { apply: false; reason: string };

/** Decides whether a write reaches the tree (the schema engine plugs in here). */
export type WriteGuard = (write: GuardedWrite) => Promise<WriteVerdict>;

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
  writeGuard?: WriteGuard;
  treeAnnotations?: TreeAnnotations;
}

/** A live entry as callers see it. */
export interface TreeEntry {
  key: string;
  valueJson: string;
  sequence: number;
  schemaVersion: number;
  updatedAt: number;
}

export interface PutEntryResult {
  sequence: number;
  deadLettered: boolean;
  deadLetterReason?: string;
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

const applyAll: WriteGuard = async () => ({ apply: true, schemaVersion: 0 });

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
  private readonly writeGuard: WriteGuard;
  private readonly treeAnnotations: TreeAnnotations | undefined;

  constructor(options: TreeDataEngineOptions) {
    this.storage = options.storage;
    this.clock = options.clock ?? Date.now;
    this.maxValueBytes = options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES;
    this.writeGuard = options.writeGuard ?? applyAll;
    this.treeAnnotations = options.treeAnnotations;
  }

  /** Writes one entry (creating the tree on first write), unless the guard dead-letters it. */
  async putEntry(
    tenant: string,
    treeName: string,
    key: string,
    valueJson: string,
  ): Promise<PutEntryResult> {
    validateTenantId(tenant);
    validateTreeName(treeName);
    validateEntryKey(key);
    if (typeof valueJson !== 'string') throw invalidArgument('value_json', 'JSON text is required');
    // Before parsing, so a huge body costs no parse.
    this.checkSize(valueJson);
    let value: unknown;
    try {
      value = JSON.parse(valueJson);
    } catch (error) {
      throw invalidArgument('value_json', (error as Error).message);
    }
    const canonical = this.canonical(value);
    // Refuse early on a locked tree; the write transaction checks again.
    await this.refuseIfLocked(tenant, treeName, 'put');
    const verdict = await this.writeGuard({ tenant, treeName, key, value });
    if (!verdict.apply) return { sequence: 0, deadLettered: true, deadLetterReason: verdict.reason };
    const stored = verdict.value === undefined ? canonical : this.canonical(verdict.value);
    const outcome = await putEntry(this.storage, {
      tenant,
      treeName,
      key,
      valueJson: stored,
      schemaVersion: verdict.schemaVersion,
      now: this.clock(),
    });
    if (outcome.status === 'locked') throw locked(treeName, 'put', outcome.lockedBy);
    return { sequence: outcome.sequence, deadLettered: false };
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
    if (outcome.status === 'locked') throw locked(treeName, 'delete', outcome.lockedBy);
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

  private checkSize(text: string): void {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > this.maxValueBytes) {
      throw new StoreError(
        'resource_exhausted',
        `value_json: ${bytes} bytes is over the ${this.maxValueBytes}-byte limit`,
        'value_json',
      );
    }
  }

  private canonical(value: unknown): string {
    let text: string;
    try {
      text = canonicalJson(value);
    } catch (error) {
      const message =
        error instanceof RangeError
          ? `nested deeper than ${MAX_JSON_DEPTH} levels`
          : (error as Error).message;
      throw invalidArgument('value_json', message);
    }
    // Canonical text can outgrow the original (1e9 → 1000000000).
    this.checkSize(text);
    return text;
  }

  private async refuseIfLocked(tenant: string, treeName: string, operation: string) {
    const tree = await resolveTree(this.storage, tenant, treeName);
    if (tree?.writeLockedBy) throw locked(treeName, operation, tree.writeLockedBy);
  }
}

function locked(treeName: string, operation: string, lockedBy: string): StoreError {
  return failedPrecondition(
    `tree '${treeName}' is write-locked by operation ${lockedBy} (a restore); ${operation} refused`,
  );
}
