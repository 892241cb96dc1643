import type { StoreCatalogScrubResult } from '@store/contract';
import { Link } from 'react-router';
import { Table } from '../../../components/ui/table';
import { formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { damagedBackupCount, groupFindings, type ScrubFinding } from '../utils/scrub-findings';
import { counted } from '../../../lib/words/counted';

const DAMAGED_COLUMNS = [
  {
    id: 'backup',
    header: 'Backup',
    cell: (f: ScrubFinding) => <Link to={paths.backup(f.backupId)}>{f.backupId}</Link>,
  },
  {
    id: 'artifact',
    header: 'Artifact',
    cell: (f: ScrubFinding) => <span className="mono">{f.artifactId}</span>,
  },
  { id: 'problem', header: 'Problem', cell: (f: ScrubFinding) => f.problem },
  { id: 'detail', header: 'Detail', cell: (f: ScrubFinding) => f.detail || '—' },
];

const ORPHAN_COLUMNS = [
  {
    id: 'artifact',
    header: 'Artifact',
    cell: (f: ScrubFinding) => <span className="mono">{f.artifactId}</span>,
  },
  { id: 'detail', header: 'Detail', cell: (f: ScrubFinding) => f.detail || '—' },
];

const findingKey = (f: ScrubFinding) => `${f.backupId}/${f.artifactId}/${f.problem}`;

/** A scrub's result: what it checked, rows with missing or corrupt artifacts, orphans, pruned. */
export function ScrubResult({ result }: { result: StoreCatalogScrubResult }) {
  const { damagedRows, orphans } = groupFindings(result.findings);
  const clean = result.findings.length === 0 && result.orphansFound === 0;
  return (
    <div className="stack">
      <p className={clean ? 'notice notice--success' : 'notice notice--warning'} role="status">
        {clean
          ? 'Clean: every catalog row has its artifacts and no orphan artifact was found.'
          : `${counted(damagedBackupCount(result.findings), 'backup')} with missing or corrupt artifacts, ${counted(result.orphansFound, 'orphan artifact')}.`}
      </p>
      <dl className="facts">
        <dt>Checked</dt>
        <dd>
          {formatCount(result.rowsChecked)} catalog rows, {formatCount(result.artifactsChecked)}{' '}
          artifacts
        </dd>
        <dt>Missing or corrupt</dt>
        <dd>{formatCount(damagedRows.length)} artifacts</dd>
        <dt>Orphan artifacts</dt>
        <dd>{formatCount(result.orphansFound)}</dd>
        <dt>Pruned</dt>
        <dd>
          {result.pruneOrphans
            ? `${formatCount(result.orphansPruned)} orphans deleted`
            : 'Nothing (pruning was off)'}
        </dd>
      </dl>
      {damagedRows.length > 0 && (
        <Table
          caption="Catalog rows with missing or corrupt artifacts"
          columns={DAMAGED_COLUMNS}
          rows={damagedRows}
          rowKey={findingKey}
        />
      )}
      {orphans.length > 0 && (
        <Table
          caption="Orphan artifacts"
          columns={ORPHAN_COLUMNS}
          rows={orphans}
          rowKey={findingKey}
        />
      )}
    </div>
  );
}
