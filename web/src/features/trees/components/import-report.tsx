import { ErrorText } from '../../../components/ui/error-text';
import { Link } from 'react-router';
import { formatBytes, formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { deadLetterReasonWords } from '../../../lib/words';
import { describeShapesRead } from '../utils/import-shapes';
import type { ImportReport } from '../api/json-lines-import';

/** The end of an import: what was written, dead-lettered and refused, line by line. */
export function ImportReportView({ treeId, report }: { treeId: string; report: ImportReport }) {
  const outcome = report.error
    ? 'Import stopped by an error'
    : report.cancelled
      ? 'Import cancelled'
      : 'Import finished';
  const shapesRead = describeShapesRead(report);
  return (
    <section className="stack" aria-label="Import report" data-testid="import-report">
      <p className="panel__title">{outcome}</p>
      {report.error !== undefined && (
        <div className="panel panel--danger" role="alert">
          <ErrorText error={report.error} />
        </div>
      )}
      {shapesRead && <p data-testid="import-shapes">{shapesRead}</p>}
      <ul className="import-report__counts">
        <li>
          <strong data-testid="import-written">{formatCount(report.written)}</strong> written to{' '}
          <Link to={paths.tree(treeId)}>{treeId}</Link>
        </li>
        <li>
          <strong data-testid="import-dead-lettered">{formatCount(report.deadLettered)}</strong>{' '}
          dead-lettered by the tree&apos;s schema policy
        </li>
        <li>
          <strong data-testid="import-refused">{formatCount(report.refused)}</strong> lines refused
        </li>
        {report.tombstonesSkipped > 0 && (
          <li>
            <strong data-testid="import-tombstones">{formatCount(report.tombstonesSkipped)}</strong>{' '}
            deletions (export-artifact tombstones) skipped: an import only writes entries
          </li>
        )}
        <li className="muted">
          {formatCount(report.linesRead)} lines, {formatBytes(report.bytesDone)} of{' '}
          {formatBytes(report.totalBytes)} done
        </li>
      </ul>
      {report.cancelled && (
        <p className="muted">
          Batches sent before the cancel and not yet answered may or may not have been written.
        </p>
      )}
      {report.refusedLines.length > 0 && (
        <ProblemLines
          title="Refused lines"
          rows={report.refusedLines.map((l) => ({ line: l.line, text: l.reason }))}
        />
      )}
      {report.deadLetteredLines.length > 0 && (
        <ProblemLines
          title="Dead-lettered lines"
          rows={report.deadLetteredLines.map((l) => ({
            line: l.line,
            text: `${l.key}: ${deadLetterReasonWords(l.reason).words}`,
            raw: l.reason,
          }))}
        />
      )}
    </section>
  );
}

function ProblemLines({
  title,
  rows,
}: {
  title: string;
  /** `raw`: the API's own value behind the words (a dead-letter reason), as the row's tooltip. */
  rows: { line: number; text: string; raw?: string }[];
}) {
  return (
    <table className="table" aria-label={title}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">Line</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.line}>
            <td className="mono">{row.line}</td>
            <td className="mono" title={row.raw}>
              {row.text}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
