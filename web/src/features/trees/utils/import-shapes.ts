import { IMPORT_LINE_SHAPE_NAMES, type ImportLineShape } from '@store/contract';
import { formatCount } from '../../../lib/format';
import type { ImportReport } from '../api/json-lines-import';

const ORDER: readonly ImportLineShape[] = ['import', 'artifact'];

/**
 * Which line shapes the import read, for its report: "Read 300 lines in the export-artifact
 * shape (gzip)", or both counts when a file mixed them. Null when no line was an entry.
 */
export function describeShapesRead(report: Pick<ImportReport, 'shapes' | 'gzip'>): string | null {
  const read = ORDER.filter((shape) => report.shapes[shape] > 0).map(
    (shape, i) =>
      `${formatCount(report.shapes[shape])}${i === 0 ? ` ${lines(report.shapes[shape])}` : ''} in the ${IMPORT_LINE_SHAPE_NAMES[shape]} shape`,
  );
  if (read.length === 0) return null;
  return `Read ${read.join(' and ')}${report.gzip ? ' (gzip)' : ''}`;
}

function lines(count: number): string {
  return count === 1 ? 'line' : 'lines';
}
