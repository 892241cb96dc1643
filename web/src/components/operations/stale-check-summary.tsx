import type { StoreStaleHealthCheckResult } from '@store/contract';
import { Link } from 'react-router';
import { Time } from '../ui/time';
import { formatCount } from '../../lib/format';
import { paths } from '../../lib/paths';

/** What a "verify stale backups" run found: its verdict counts and the unhealthy backups. */
export function StaleCheckSummary({ result }: { result: StoreStaleHealthCheckResult }) {
  return (
    <dl className="facts">
      <dt>Selected</dt>
      <dd>
        {formatCount(result.selected)} backups{result.treeId && <> of tree {result.treeId}</>} never
        verified or last verified before <Time value={result.verifiedBefore} />
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
                  <Link to={paths.backup(backupId)} className="mono">
                    {backupId}
                  </Link>
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
    </dl>
  );
}
