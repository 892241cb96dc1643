import { BackupScopeRunOutcome, durationToMs, type backupV1 } from '@store/contract';

type BackupScopeStatusResponse = backupV1.BackupScopeStatusResponse;
import { Link } from 'react-router';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { formatInterval } from '../../../lib/interval';
import { paths } from '../../../lib/paths';
import { msOf } from '../utils/schedule-words';
import { ZonedTime } from './zoned-time';

/** GetScopeStatus of a scope: what is scheduled, when it last ran and succeeded, chain depth. */
export function ScopeStatusPanel({
  status,
  zone,
}: {
  status: BackupScopeStatusResponse;
  /** The zone its times are shown in (named beside each). */
  zone: string;
}) {
  const outcome = outcomeOf(status.lastRunOutcome);
  return (
    <section className="panel" aria-labelledby="scope-status">
      <h2 id="scope-status" className="panel__title">
        Scope status
      </h2>
      <dl className="facts">
        <dt>Scope</dt>
        <dd>
          Tree {status.scope?.treeId}
          {status.scope?.keyPrefix ? `, key prefix ${status.scope.keyPrefix}` : ' (whole tree)'}
        </dd>
        <dt>Full schedule</dt>
        <dd>{registration(status.fullScheduleRegistered, status.runtimeFullBackupInterval)}</dd>
        <dt>Incremental schedule</dt>
        <dd>
          {registration(
            status.incrementalScheduleRegistered,
            status.runtimeIncrementalBackupInterval,
          )}
        </dd>
        <dt>Last full run</dt>
        <dd>
          <ZonedTimeOf value={status.lastFullRunUtc} zone={zone} />
        </dd>
        <dt>Last full success</dt>
        <dd>
          <ZonedTimeOf value={status.lastFullSuccessUtc} zone={zone} />
        </dd>
        <dt>Last incremental run</dt>
        <dd>
          <ZonedTimeOf value={status.lastIncrementalRunUtc} zone={zone} />
        </dd>
        <dt>Last incremental success</dt>
        <dd>
          <ZonedTimeOf value={status.lastIncrementalSuccessUtc} zone={zone} />
        </dd>
        <dt>Last outcome</dt>
        <dd>
          <Badge tone={outcome.tone}>{outcome.label}</Badge>
          {/* GetScopeStatus carries no reason; the overview's last run does ("no change since …"). */}
          {(status.lastRunOutcome === BackupScopeRunOutcome.SKIPPED ||
            status.lastRunOutcome === BackupScopeRunOutcome.FAILED) && (
            <>
              {' '}
              The <Link to={paths.schedulesOverview}>schedule overview</Link> says why.
            </>
          )}
        </dd>
        <dt>Chain depth</dt>
        <dd>
          {status.chainDepth === 0
            ? 'No backup yet'
            : `${status.chainDepth} (the newest backup and the backups it builds on)`}
        </dd>
      </dl>
    </section>
  );
}

function registration(
  registered: boolean,
  interval: BackupScopeStatusResponse['runtimeFullBackupInterval'],
) {
  if (!registered) return <Badge>Not scheduled</Badge>;
  return (
    <>
      <Badge tone="success">Registered</Badge> every {formatInterval(durationToMs(interval))}
    </>
  );
}

function outcomeOf(outcome: BackupScopeRunOutcome): { label: string; tone: BadgeTone } {
  switch (outcome) {
    case BackupScopeRunOutcome.SUCCEEDED:
      return { label: 'Succeeded', tone: 'success' };
    case BackupScopeRunOutcome.FAILED:
      return { label: 'Failed', tone: 'danger' };
    case BackupScopeRunOutcome.SKIPPED:
      return { label: 'Skipped', tone: 'warning' };
    case BackupScopeRunOutcome.RUNNING:
      return { label: 'Running', tone: 'info' };
    default:
      return { label: 'No run yet', tone: 'neutral' };
  }
}

function ZonedTimeOf({
  value,
  zone,
}: {
  value: BackupScopeStatusResponse['lastFullRunUtc'];
  zone: string;
}) {
  return value ? <ZonedTime ms={msOf(value)} zone={zone} /> : <span className="muted">Never</span>;
}
