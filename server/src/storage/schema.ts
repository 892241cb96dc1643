import type { ColumnType } from 'kysely';

/**
 * Table types of the store's database. Times are epoch milliseconds and booleans 0/1 in both
 * SQLite and PostgreSQL, so one set of queries serves both.
 */
export interface Database {
  trees: TreesTable;
  physical_trees: PhysicalTreesTable;
  entries: EntriesTable;
  operations: OperationsTable;
}

/** A tenant's logical tree, pointing at the physical tree that currently holds its entries. */
export interface TreesTable {
  tenant: string;
  name: string;
  physical_tree_id: string;
  /** Operation id holding an exclusive write lock (a cold restore), or null. */
  write_locked_by: string | null;
  created_at: number;
  updated_at: number;
}

/** Where entries physically live; a restore fills a fresh one and swaps the logical tree to it. */
export interface PhysicalTreesTable {
  id: string;
  tenant: string;
  tree_name: string;
  last_sequence: number;
  created_at: number;
}

export interface EntriesTable {
  physical_tree_id: string;
  key: string;
  /** Canonical JSON; null for a tombstone. */
  value_json: string | null;
  tombstone: number;
  sequence: number;
  schema_version: number;
  updated_at: number;
}

export type OperationState = 'QUEUED' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

export interface OperationsTable {
  id: string;
  tenant: string;
  kind: string;
  state: OperationState;
  target_id: string | null;
  tracking_id: string | null;
  request_json: string;
  request_fingerprint: string;
  progress_done: number;
  progress_total: number;
  progress_unit: string;
  progress_message: string;
  created_at: number;
  started_at: number | null;
  updated_at: number;
  finished_at: number | null;
  cancel_requested: number;
  error_code: string | null;
  error_message: string | null;
  created_by: string;
  result_json: string | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  attempts: ColumnType<number, number | undefined, number>;
  /** Engine-owned resume point of a resumable operation (JSON), or null. */
  checkpoint_json: string | null;
}
