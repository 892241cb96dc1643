import type { ColumnType, Generated } from 'kysely';

/**
 * Table types of the store's database. Times are epoch milliseconds and booleans 0/1 in both
 * SQLite and PostgreSQL, so one set of queries serves both.
 */
export interface Database {
  trees: TreesTable;
  physical_trees: PhysicalTreesTable;
  entries: EntriesTable;
  operations: OperationsTable;
  api_tokens: ApiTokensTable;
  schema_policies: SchemaPoliciesTable;
  schema_version_configs: SchemaVersionConfigsTable;
  schema_dead_letters: SchemaDeadLettersTable;
  schema_reports: SchemaReportsTable;
  backups: BackupsTable;
  backup_captures: BackupCapturesTable;
  backup_restores: BackupRestoresTable;
  backup_scopes: BackupScopesTable;
  audit_records: AuditRecordsTable;
  backup_comparison_differences: BackupComparisonDifferencesTable;
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
  /** Live entries and their bytes, kept by triggers on entries (migration 0025). */
  live_entries: Generated<number>;
  live_bytes: Generated<number>;
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
  /** Who asked to cancel it; null until someone does. */
  cancelled_by: ColumnType<string | null, string | null | undefined, string | null>;
  result_json: string | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  attempts: ColumnType<number, number | undefined, number>;
  /** Engine-owned resume point of a resumable operation (JSON), or null. */
  checkpoint_json: string | null;
}

export interface ApiTokensTable {
  id: string;
  tenant: string;
  /** Comma-separated role names. */
  roles: string;
  name: string;
  /** sha256 (hex) of the whole token; tokens are random, so a fast hash is enough. */
  secret_hash: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
}

/** A tree's schema policy (one per tenant and tree name). */
export interface SchemaPoliciesTable {
  tenant: string;
  tree_name: string;
  json_schema: string;
  /** ENFORCE or AUDIT. */
  mode: string;
  version: number;
  description: string;
  updated_at: number;
  updated_by: string;
}

/** A tree's version config; migrations_json holds the steps with their JSON Patch transforms. */
export interface SchemaVersionConfigsTable {
  tenant: string;
  tree_name: string;
  current_version: number;
  target_version: number;
  migrations_json: string;
  updated_at: number;
}

/** A value set aside instead of written; id orders them by arrival. */
export interface SchemaDeadLettersTable {
  id: Generated<number>;
  tenant: string;
  tree_name: string;
  key: string;
  value_json: string;
  reason: string;
  /** JSON array of messages. */
  errors_json: string;
  source_operation_id: string | null;
  schema_version: number;
  dead_lettered_at: number;
  /** Migration 0009: null (never replayed), WRITTEN (final) or REFUSED (still pending). */
  replay_outcome: string | null;
  replayed_at: number | null;
  replayed_by: string | null;
  replay_sequence: number | null;
  replayed_value_json: string | null;
  replay_errors_json: string | null;
  /** Migration 0013: set once discarded (no longer pending); purged with the audit retention. */
  discarded_at: number | null;
  discarded_by: string | null;
  discard_note: string | null;
}

/** The latest remediation or migration report of a tree, running or finished. */
export interface SchemaReportsTable {
  tenant: string;
  tree_name: string;
  /** REMEDIATION, MIGRATION or ADVANCE_AND_MIGRATE. */
  kind: string;
  operation_id: string | null;
  state: OperationState;
  scanned: number;
  already_compliant: number;
  transformed: number;
  dead_lettered: number;
  failed: number;
  from_version: number;
  to_version: number;
  started_at: number;
  finished_at: number | null;
}

/** The backup catalog: one row per durable backup (its manifest as JSON) with its health state. */
export interface BackupsTable {
  tenant: string;
  id: string;
  name: string;
  /** FULL or INCREMENTAL. */
  kind: string;
  tree_name: string;
  key_prefix: string | null;
  base_backup_id: string | null;
  set_id: string | null;
  /** The physical tree captured: an incremental must read the same one as its base. */
  physical_tree_id: string;
  created_at: number;
  completed_at: number;
  to_sequence: number;
  manifest_json: string;
  /** HEALTHY, DEGRADED, CORRUPT, MISSING; null = never checked. */
  last_health_status: string | null;
  last_verified_at: number | null;
  /** When a check first found it damaged (see 0022); null while healthy or never checked. */
  health_damaged_since: number | null;
  health_report_json: string | null;
  health_monitoring: number;
  health_interval_ms: number | null;
  health_next_check_at: number | null;
  /** The capture operation that published it; null when unknown (older rows, catalog rebuild). */
  operation_id: string | null;
  /** The manifest's byteSize, as a column (migration 0018) so lists need not parse manifests. */
  byte_size: number;
  /** The manifest's contentDigest (migration 0027); null for backups captured before digests. */
  content_digest: string | null;
}

/** A capture writing files now; scrub leaves its directory alone while its operation lives. */
export interface BackupCapturesTable {
  tenant: string;
  backup_id: string;
  operation_id: string;
  started_at: number;
}

/** A finished restore, by its restore-engine operation id (idempotency and RevertRestore). */
export interface BackupRestoresTable {
  tenant: string;
  operation_id: string;
  backup_id: string;
  target_tree: string;
  /** IN_PLACE, NEW_TREE or SHADOW. */
  mode: string;
  restored_physical_tree_id: string;
  previous_physical_tree_id: string | null;
  result_json: string;
  created_at: number;
  reverted_at: number | null;
  /** Who reverted it (the caller's subject); null until reverted, and for older reverts. */
  reverted_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The restored tree's sequence when installed (null: stored before it was recorded). */
  installed_sequence: number | null;
}

/**
 * Per scope (tree + key prefix): its full and incremental schedules (null interval = none) and
 * its run status.
 */
export interface BackupScopesTable {
  tenant: string;
  tree_name: string;
  /** The scope's key prefix; '' for the whole tree (a scope is tree + key prefix). */
  key_prefix: string;
  full_interval_ms: number | null;
  full_next_run_at: number | null;
  incremental_interval_ms: number | null;
  incremental_next_run_at: number | null;
  last_full_run_at: number | null;
  last_full_success_at: number | null;
  last_incremental_run_at: number | null;
  last_incremental_success_at: number | null;
  /** NONE, SUCCEEDED, FAILED, SKIPPED or RUNNING. */
  last_outcome: string;
  updated_at: number;
  /** The time-of-day anchor, minutes after local midnight in anchor_time_zone; both or neither. */
  anchor_minute_of_day: number | null;
  anchor_time_zone: string | null;
  /** The scheduled backups' name template; NULL: the default. */
  name_template: string | null;
  /** 1: an unchanged scheduled incremental still writes a backup; 0: it is a skipped run. */
  capture_unchanged_incrementals: ColumnType<number, number | undefined, number>;
  /** Why the last run was SKIPPED; NULL otherwise. */
  last_run_reason: string | null;
}

/** One audit record (issue 18): a state-changing or refused call. */
export interface AuditRecordsTable {
  id: string;
  at: number;
  /** Empty when the call named no tenant. */
  tenant: string;
  subject: string;
  service: string;
  method: string;
  target_id: string | null;
  /** The target's name when the call was made, for a target it destroys (migration 0024). */
  target_name: string | null;
  /** OK or a gRPC code name (PERMISSION_DENIED). */
  outcome: string;
  client_address: string;
  detail: string;
}

/** One key that differs in a restore preview or backup diff (migration 0011). */
export interface BackupComparisonDifferencesTable {
  tenant: string;
  operation_id: string;
  key: string;
  /** ADDED, CHANGED or REMOVED. */
  change: string;
  before_json: string | null;
  after_json: string | null;
  before_schema_version: number;
  after_schema_version: number;
}
