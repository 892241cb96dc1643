import type { StoreStaleHealthCheckResult } from '@store/contract';
import { Link } from 'react-router';
import { Time } from '../ui/time';
import { useBackupNames } from '../../lib/backups/use-backup-names';
import { formatCount } from '../../lib/format';
import { paths } from '../../lib/paths';
import { counted } from '../../lib/words/counted';

const NAMED_AT_MOST = 50;

/** What a "verify stale backups" run found: its verdict counts and the unhealthy backups. */
export function StaleCheckSummary({ result }: { result: StoreStaleHealthCheckResult }) {
  // Backups by their names (the id on hover): a page of them, the rest by id.
  const names = useBackupNames(result.unhealthyBackupIds.slice(0, NAMED_AT_MOST));
  return (
    <dl className="facts">
      <dt>Selected</dt>
      <dd>
        {counted(result.selected, 'backup')}
        {result.treeId && <> of tree {result.treeId}</>} never verified or last verified before{' '}
        <Time value={result.verifiedBefore} />
      </dd>
      <dt>Verdicts</dt>
      <dd>
        {formatCount(result.healthy)} healthy, {formatCount(result.degraded)} degraded,{' '}
        {formatCount(result.corrupt)} corrupt, {formatCount(result.missing)} missing
        {result.skipped > 0n && <>, {formatCount(result.skipped)} deleted before their turn</>}
      </dd>
      {result.unhealthyBackupIds.length > 0 && (
        <>
          <dt>Unhealthy</dt>
          <dd>
            <ul className="inline-list">
              {result.unhealthyBackupIds.map((backupId) => (
                <li key={backupId}>
                  {names.has(backupId) ? (
                    <Link to={paths.backup(backupId)} title={backupId}>
                      {names.get(backupId)}
                    </Link>
                  ) : (
                    <Link to={paths.backup(backupId)} className="mono">
                      {backupId}
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
    </dl>
  );
}
