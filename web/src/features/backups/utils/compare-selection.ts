import type { BackupManifest } from '@store/contract';

/** Up to two backups ticked in the catalog to compare, oldest first once there are two. */
export type CompareSelection = readonly BackupManifest[];

/** Ticks or unticks a backup; a third tick replaces the older pick. */
export function toggleCompare(
  selection: CompareSelection,
  backup: BackupManifest,
): CompareSelection {
  if (selection.some((b) => b.backupId === backup.backupId)) {
    return selection.filter((b) => b.backupId !== backup.backupId);
  }
  return [...selection, backup].slice(-2);
}

/** Why the selection cannot be compared yet, or undefined when it can. */
export function compareBlocker(selection: CompareSelection): string | undefined {
  if (selection.length < 2) return 'Tick two backups of one tree to compare them.';
  const [a, b] = selection;
  if (a && b && a.treeId !== b.treeId) {
    return `These are backups of two trees (${a.treeId}, ${b.treeId}); a diff compares two backups of one tree.`;
  }
  return undefined;
}

/** The pair in time order: the older backup is the "before" side. */
export function compareOrder(
  selection: CompareSelection,
): [BackupManifest, BackupManifest] | undefined {
  const [a, b] = selection;
  if (!a || !b) return undefined;
  const time = (m: BackupManifest) =>
    Number(m.createdAt?.seconds ?? 0n) * 1e3 + (m.createdAt?.nanos ?? 0) / 1e6;
  return time(a) <= time(b) ? [a, b] : [b, a];
}
