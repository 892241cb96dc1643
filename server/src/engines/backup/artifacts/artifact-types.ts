/**
 * Shapes shared by the artifact store's modules (DESIGN.md §3 Backup, §5 Artifacts). Plain data:
 * the capture, restore, export, health and scrub engines build on these.
 */

/** One entry of a captured tree, as an artifact stores it; `valueJson: null` is a tombstone. */
export interface ArtifactRecord {
  key: string;
  valueJson: string | null;
  sequence: number;
  schemaVersion: number;
}

/** What a manifest says about one artifact: enough to find it and prove its bytes. */
export interface ArtifactRef {
  artifactId: string;
  /** Size of the stored (compressed) file. */
  byteSize: number;
  /** Hex sha256 of the stored (compressed) bytes. */
  sha256: string;
  /** When given, readers also check the number of records. */
  entryCount?: number;
}

/** What the writer reports for each artifact it made durable. */
export interface WrittenArtifact {
  artifactId: string;
  byteSize: number;
  sha256: string;
  entryCount: number;
  tombstoneCount: number;
  uncompressedBytes: number;
}

/** Why an artifact failed verification (BackupHealthReport issue problems). */
export type ArtifactProblem = 'missing' | 'size_mismatch' | 'checksum_mismatch' | 'unreadable';

/** The outcome of hashing one artifact against its manifest entry. */
export interface ArtifactVerification {
  ok: boolean;
  problem?: ArtifactProblem;
  /** Human-readable detail for a health report; never file contents. */
  detail?: string;
  /** Stored bytes hashed (for `bytes_verified`). */
  bytesRead: number;
}

/** Options every long-running read or write takes. */
export interface SignalOptions {
  signal?: AbortSignal;
}
