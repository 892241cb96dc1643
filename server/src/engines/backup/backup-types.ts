/**
 * Plain shapes of the backup engine (DESIGN.md §3 Backup). They are JSON: the manifest is what
 * manifest.json holds and the catalog row stores; the results are what tracked operations keep.
 */

export type BackupKindName = 'FULL' | 'INCREMENTAL';
export type HealthStatus = 'HEALTHY' | 'DEGRADED' | 'CORRUPT' | 'MISSING';
export type RestoreModeName = 'IN_PLACE' | 'NEW_TREE' | 'SHADOW';

/** One durable artifact as the manifest lists it. */
export interface ManifestArtifact {
  artifactId: string;
  byteSize: number;
  sha256: string;
  entryCount: number;
}

/** A backup's manifest: enough to restore it and to rebuild its catalog row with no database. */
export interface BackupManifestDoc {
  backupId: string;
  tenant: string;
  name: string;
  kind: BackupKindName;
  treeName: string;
  keyPrefix: string | null;
  baseBackupId: string | null;
  setId: string | null;
  /** The physical tree captured: sequences are only comparable within one. */
  physicalTreeId: string;
  createdAt: number;
  completedAt: number;
  /** The backup covers (fromSequence, toSequence] of the tree. */
  fromSequence: number;
  toSequence: number;
  entryCount: number;
  tombstoneCount: number;
  byteSize: number;
  artifacts: ManifestArtifact[];
  schemaVersion: number;
  createdBy: string;
  labels: Record<string, string>;
  /**
   * The content digest of the scope as it stood after this backup (its chain applied):
   * `sum-sha256:<hex>:<count>` (capture/content-digest.ts). Absent or null: captured before
   * content digests were recorded.
   */
  contentDigest?: string | null;
}

/** A catalog entry: the manifest plus the freshness of its latest health report. */
export interface CatalogEntry {
  manifest: BackupManifestDoc;
  lastHealthStatus: HealthStatus | null;
  lastVerifiedAt: number | null;
}

/** What a single-scope capture returns (and its tracked operation stores). */
export interface CaptureResult {
  backupId: string;
  entry: CatalogEntry;
}

export interface SetManifest {
  /** Null for a single scope (spec 000, Resources rule 1). */
  setId: string | null;
  name: string;
  backupIds: string[];
  crossTreeConsistent: boolean;
  createdAt: number;
}

export interface SetCaptureResult {
  setManifest: SetManifest;
  members: CaptureResult[];
}

/** A scope on the engine side: a tenant-local tree name and an optional key prefix. */
export interface ScopeInput {
  treeId: string;
  keyPrefix?: string | undefined;
}

export interface CaptureRequest {
  name: string;
  scope: ScopeInput;
  pageSize: number;
  labels: Record<string, string>;
  /** Throttle: entries read a second at most (0 or absent: unpaced). */
  maxEntriesPerSecond?: number | undefined;
  /** Incrementals only; empty on a scheduled incremental: the newest usable backup is the base. */
  baseBackupId?: string | undefined;
}

export interface SetCaptureRequest {
  name: string;
  scopes: ScopeInput[];
  crossTreeConsistent: boolean;
  pageSize: number;
  labels: Record<string, string>;
  /** Throttle: entries read a second at most, per tree (0 or absent: unpaced). */
  maxEntriesPerSecond?: number | undefined;
}

export interface RestoreRequest {
  backupId: string;
  targetTreeId?: string | undefined;
  scope?: ScopeInput | undefined;
  mode: RestoreModeName;
  /** The restore-engine idempotency key; generated when absent. */
  operationId?: string | undefined;
  applyBatchSize: number;
}

/** RestoreResponse without dead-letter counters (spec 000, Resources rule 2). */
export interface RestoreResult {
  backupId: string;
  targetTreeId: string;
  mode: RestoreModeName;
  operationId: string;
  manifestChain: string[];
  entriesApplied: number;
  shadowPhysicalTreeId?: string | undefined;
  previousPhysicalTreeId?: string | undefined;
  /**
   * Once reverted: when (epoch ms) and who (a subject; absent for reverts stored before it was).
   * Never stored in the result: joined from the stored restore when a status is read.
   */
  revertedAt?: number | undefined;
  revertedBy?: string | undefined;
}

export interface HealthIssue {
  artifactId: string;
  /** checksum_mismatch, missing, unreadable, size_mismatch, chain_broken. */
  problem: string;
  detail: string;
}

export interface HealthReport {
  backupId: string;
  checkedAt: number;
  status: HealthStatus;
  artifactsChecked: number;
  bytesVerified: number;
  chainIntact: boolean;
  issues: HealthIssue[];
  /** How the backup was verified: absent for a health check, 'export' for a verified export. */
  verifiedBy?: 'export';
}

export interface HealthConfig {
  monitoringEnabled: boolean;
  intervalMs: number;
}

export interface RebuildResult {
  manifestsScanned: number;
  rowsRestored: number;
  rowsAlreadyPresent: number;
  unreadableManifests: string[];
}

export interface ScrubFinding {
  backupId: string;
  artifactId: string;
  /** missing, corrupt, orphan. */
  problem: string;
  detail: string;
}

export interface ScrubResult {
  rowsChecked: number;
  artifactsChecked: number;
  findings: ScrubFinding[];
  orphansFound: number;
  orphansPruned: number;
  pruneOrphans: boolean;
}
