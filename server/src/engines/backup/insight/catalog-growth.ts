import type { CreatedOnDay } from '../../../storage/backup/catalog-growth-store.js';

/** Catalog growth: backups and stored bytes at the end of each UTC day. */

export const DAY_MS = 86_400_000;
/** Days the dashboard's growth covers, today included. */
export const GROWTH_DAYS = 30;

export interface GrowthPoint {
  /** The start of the UTC day, epoch ms. */
  day: number;
  backupCount: number;
  storedBytes: number;
}

/** The first day (days since the epoch) of the window ending today. */
export function firstGrowthDay(now: number): number {
  return Math.floor(now / DAY_MS) - (GROWTH_DAYS - 1);
}

/** The window's days with nothing counted yet. */
export function emptyGrowth(now: number): GrowthPoint[] {
  const first = firstGrowthDay(now);
  return Array.from({ length: GROWTH_DAYS }, (_, i) => ({
    day: (first + i) * DAY_MS,
    backupCount: 0,
    storedBytes: 0,
  }));
}

/**
 * Each tree's points, oldest first: on day d a backup counts when it was created on or before d
 * and was not deleted by retention on or before d (a deletion during d removes it from d's end).
 */
export function growthByTree(
  rows: readonly CreatedOnDay[],
  now: number,
): Map<string, GrowthPoint[]> {
  const first = firstGrowthDay(now);
  const series = new Map<string, GrowthPoint[]>();
  const seriesOf = (tree: string) => {
    let points = series.get(tree);
    if (!points) {
      points = emptyGrowth(now);
      series.set(tree, points);
    }
    return points;
  };
  for (const row of rows) {
    const points = seriesOf(row.treeName);
    const from = row.createdDay < first ? 0 : row.createdDay - first;
    const until =
      row.deletedDay === null ? GROWTH_DAYS : Math.min(row.deletedDay - first, GROWTH_DAYS);
    for (let i = from; i < until; i++) {
      points[i]!.backupCount += row.backupCount;
      points[i]!.storedBytes += row.bytes;
    }
  }
  return series;
}

/** The sum of every tree's points, day by day. */
export function totalGrowth(
  byTree: ReadonlyMap<string, GrowthPoint[]>,
  now: number,
): GrowthPoint[] {
  const total = emptyGrowth(now);
  for (const points of byTree.values()) {
    points.forEach((p, i) => {
      total[i]!.backupCount += p.backupCount;
      total[i]!.storedBytes += p.storedBytes;
    });
  }
  return total;
}
