import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  BackupHealthReportSchema,
  BackupHealthStatus,
  BackupKind,
  BackupManifestSchema,
  StoreRestoreMode,
  durationFromMs,
  type BackupHealthReport,
  type BackupManifest,
  type BackupScopeSelector,
  type StoreOperationStatus,
} from '@store/contract';
import type {
  CaptureResult,
  CatalogEntry,
  HealthReport,
  HealthStatus,
  RebuildResult,
  RestoreModeName,
  RestoreResult,
  ScopeInput,
  ScrubResult,
  SetCaptureResult,
  SetManifest,
} from '../../engines/backup/backup-types.js';
import type { ResultMapper } from '../operations/operation-mapping.js';

/** proto ↔ engine conversions of the backup binding; no logic beyond field mapping. */

/** The engine scope of a selector (undefined stays undefined: the engine names the field). */
export function scopeOf(scope: BackupScopeSelector | undefined): ScopeInput | undefined {
  return scope && { treeId: scope.treeId, keyPrefix: scope.keyPrefix };
}

/** An unspecified mode means IN_PLACE (DESIGN.md §2). */
export function modeOf(mode: StoreRestoreMode): RestoreModeName {
  if (mode === StoreRestoreMode.NEW_TREE) return 'NEW_TREE';
  if (mode === StoreRestoreMode.SHADOW) return 'SHADOW';
  return 'IN_PLACE';
}

export function modeToProto(mode: RestoreModeName): StoreRestoreMode {
  return StoreRestoreMode[mode];
}

/** Engine health status (null = never checked) as the proto enum. */
export function healthToProto(status: HealthStatus | null): BackupHealthStatus {
  return status === null ? BackupHealthStatus.UNSPECIFIED : BackupHealthStatus[status];
}

/** The proto health filter as the engine's (null = never checked). */
export function healthOf(status: BackupHealthStatus): HealthStatus | null {
  return status === BackupHealthStatus.UNSPECIFIED
    ? null
    : (BackupHealthStatus[status] as HealthStatus);
}

export function manifestToProto(entry: CatalogEntry): BackupManifest {
  const m = entry.manifest;
  return create(BackupManifestSchema, {
    backupId: m.backupId,
    name: m.name,
    kind: BackupKind[m.kind],
    treeId: m.treeName,
    baseBackupId: m.baseBackupId ?? undefined,
    setId: m.setId ?? undefined,
    createdAt: timestampFromMs(m.createdAt),
    completedAt: timestampFromMs(m.completedAt),
    fromSequence: BigInt(m.fromSequence),
    toSequence: BigInt(m.toSequence),
    entryCount: BigInt(m.entryCount),
    tombstoneCount: BigInt(m.tombstoneCount),
    byteSize: BigInt(m.byteSize),
    artifacts: m.artifacts.map((a) => ({
      artifactId: a.artifactId,
      byteSize: BigInt(a.byteSize),
      sha256: a.sha256,
      entryCount: BigInt(a.entryCount),
    })),
    schemaVersion: m.schemaVersion,
    createdBy: m.createdBy,
    labels: m.labels,
    lastHealthStatus: healthToProto(entry.lastHealthStatus),
    lastVerifiedAt:
      entry.lastVerifiedAt === null ? undefined : timestampFromMs(entry.lastVerifiedAt),
    keyPrefix: m.keyPrefix ?? undefined,
    // Empty for a backup captured before content digests (its manifest has none).
    contentDigest: m.contentDigest ?? '',
  });
}

export function healthReportToProto(report: HealthReport): BackupHealthReport {
  return create(BackupHealthReportSchema, {
    backupId: report.backupId,
    checkedAt: timestampFromMs(report.checkedAt),
    status: healthToProto(report.status),
    artifactsChecked: report.artifactsChecked,
    bytesVerified: BigInt(report.bytesVerified),
    chainIntact: report.chainIntact,
    issues: report.issues,
  });
}

export function captureToProto(result: CaptureResult) {
  return { backupId: result.backupId, manifest: manifestToProto(result.entry) };
}

export function setManifestToProto(set: SetManifest) {
  return {
    setId: set.setId ?? undefined,
    name: set.name,
    backupIds: set.backupIds,
    crossTreeConsistent: set.crossTreeConsistent,
    createdAt: timestampFromMs(set.createdAt),
  };
}

export function setCaptureToProto(result: SetCaptureResult) {
  return {
    setManifest: setManifestToProto(result.setManifest),
    members: result.members.map(captureToProto),
  };
}

/** RestoreResponse fields of a restore result (no dead-letter counters: spec 000, rule 2). */
export function restoreToProto(result: RestoreResult) {
  return {
    backupId: result.backupId,
    targetTreeId: result.targetTreeId,
    mode: modeToProto(result.mode),
    operationId: result.operationId,
    manifestChain: result.manifestChain,
    entriesApplied: BigInt(result.entriesApplied),
    shadowPhysicalTreeId: result.shadowPhysicalTreeId,
    previousPhysicalTreeId: result.previousPhysicalTreeId,
    revertedAt: result.revertedAt === undefined ? undefined : timestampFromMs(result.revertedAt),
    revertedBy: result.revertedBy,
  };
}

type ResultCase = NonNullable<StoreOperationStatus['result']['case']>;

/** A mapper putting an engine result, converted by `toProto`, in the status's `result` oneof. */
function resultAs<T>(resultCase: ResultCase, toProto: (result: T) => unknown): ResultMapper {
  return (r) => ({ case: resultCase, value: toProto(r as T) }) as StoreOperationStatus['result'];
}

/** Status result mappers of the backup kinds (the status's result oneof). */
export const BACKUP_RESULT_MAPPERS: Readonly<Record<string, ResultMapper>> = {
  BACKUP: resultAs('capture', captureToProto),
  INCREMENTAL_BACKUP: resultAs('capture', captureToProto),
  BACKUP_SET: resultAs('setCapture', setCaptureToProto),
  RESTORE: resultAs('restore', restoreToProto),
  COLD_RESTORE: resultAs('restore', restoreToProto),
  BACKUP_HEALTH_CHECK: resultAs('healthReport', healthReportToProto),
  CATALOG_REBUILD: resultAs('rebuild', (r: RebuildResult) => r),
  CATALOG_SCRUB: resultAs('scrub', (r: ScrubResult) => r),
};

export { durationFromMs };
