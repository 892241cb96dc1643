import type { StoreCatalogScrubResult } from '@store/contract';

export type ScrubFinding = StoreCatalogScrubResult['findings'][number];

/** A scrub's findings split the way an admin acts on them (spec: missing, corrupt, orphan). */
export interface GroupedFindings {
  /** Catalog rows whose artifact is gone or does not match its checksum. */
  damagedRows: ScrubFinding[];
  /** Artifacts on disk that no catalog row owns. */
  orphans: ScrubFinding[];
}

export function groupFindings(findings: readonly ScrubFinding[]): GroupedFindings {
  return {
    damagedRows: findings.filter((f) => f.problem !== 'orphan'),
    orphans: findings.filter((f) => f.problem === 'orphan'),
  };
}

/** How many catalog rows (backups) have at least one missing or corrupt artifact. */
export function damagedBackupCount(findings: readonly ScrubFinding[]): number {
  return new Set(groupFindings(findings).damagedRows.map((f) => f.backupId)).size;
}
