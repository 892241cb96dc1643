import { timestampMs } from '@bufbuild/protobuf/wkt';
import type { CatalogGrowthPoint, RetentionFreed } from '@store/contract';
import { formatBytes, formatCount } from '../../../lib/format';

/** One day's end of catalog growth, as the chart reads it. */
export interface GrowthDay {
  dayMs: number;
  backups: number;
  bytes: number;
}

/** A growth series (oldest first) with its latest values and the change over the window. */
export interface GrowthSeries {
  days: GrowthDay[];
  latest: GrowthDay | undefined;
  backupChange: number;
  byteChange: number;
}

export function growthSeries(points: readonly CatalogGrowthPoint[]): GrowthSeries {
  const days = points.map((p) => ({
    dayMs: p.day ? timestampMs(p.day) : 0,
    backups: Number(p.backupCount),
    bytes: Number(p.storedBytes),
  }));
  const first = days[0];
  const latest = days.at(-1);
  return {
    days,
    latest,
    backupChange: first && latest ? latest.backups - first.backups : 0,
    byteChange: first && latest ? latest.bytes - first.bytes : 0,
  };
}

const signed = (value: number, text: string) =>
  value > 0 ? `+${text}` : value < 0 ? `−${text}` : '±0';

/** "+3 backups, +1.2 MB" (or "−…", "±0 …") since the first day of the series. */
export function growthChangeText(series: GrowthSeries): string {
  const backups = signed(series.backupChange, formatCount(Math.abs(series.backupChange)));
  const bytes =
    series.byteChange === 0
      ? '±0 B'
      : signed(series.byteChange, formatBytes(Math.abs(series.byteChange)));
  return `${backups} ${Math.abs(series.backupChange) === 1 ? 'backup' : 'backups'}, ${bytes}`;
}

/** "1.2 MB in 8 backups", or "nothing" when retention deleted none. */
export function freedText(freed: RetentionFreed | undefined): string {
  const count = Number(freed?.backupCount ?? 0n);
  if (count === 0) return 'nothing';
  return `${formatBytes(freed?.bytes ?? 0n)} in ${formatCount(count)} ${count === 1 ? 'backup' : 'backups'}`;
}
