import type { ScheduleOverview } from '@store/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Table, type Column } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { paths } from '../../../lib/paths';
import { counted } from '../../../lib/words';
import { describeCadence, describeLastRun, msOf, relativeTime } from '../api/schedule-words';

/** A scope as the table names it: "orders" or "orders, key prefix eu/". */
function scopeName(view: ScheduleOverview): string {
  const tree = view.scope?.treeId ?? '';
  return view.scope?.keyPrefix ? `${tree}, key prefix ${view.scope.keyPrefix}` : tree;
}

function NextRun({ view, now }: { view: ScheduleOverview; now: number }) {
  const next = view.nextRuns[0];
  if (!next) return <span className="muted">—</span>;
  return (
    <span className="schedule-next">
      <strong>{relativeTime(msOf(next.runTime), now)}</strong>{' '}
      <span className="muted">
        (<Time value={next.runTime} compact />, {next.incremental ? 'incremental' : 'full'})
      </span>
    </span>
  );
}

function PlannedRuns({ view }: { view: ScheduleOverview }) {
  if (view.nextRuns.length === 0) return <span className="muted">—</span>;
  return (
    <details className="schedule-runs">
      <summary>Next {view.nextRuns.length} runs</summary>
      <ol>
        {view.nextRuns.map((run) => (
          <li key={`${msOf(run.runTime)}-${run.incremental ? 'i' : 'f'}`}>
            <Time value={run.runTime} compact /> · {run.incremental ? 'incremental' : 'full'}
            <br />
            <span className="muted">as “{run.backupName}”</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

function LastRun({ view }: { view: ScheduleOverview }) {
  const last = describeLastRun(view.lastRun);
  return (
    <span className="schedule-last">
      <Badge tone={last.tone}>{last.text}</Badge>
      {view.lastRun && (
        <>
          {' '}
          <Time value={view.lastRun.runTime} compact />
        </>
      )}
    </span>
  );
}

/** Every schedule of the tenant, a row per scope; stacks into cards on phones. */
export function ScheduleOverviewTable({
  schedules,
  now,
}: {
  schedules: readonly ScheduleOverview[];
  now: number;
}) {
  const columns: Column<ScheduleOverview>[] = [
    {
      id: 'scope',
      header: 'Scope',
      cell: (view) => (
        <Link
          to={paths.scheduleScope(view.scope?.treeId ?? '', view.scope?.keyPrefix ?? '')}
          aria-label={`Edit the schedules of ${scopeName(view)}`}
        >
          {scopeName(view)}
        </Link>
      ),
    },
    // Six columns, so the overview fits beside the docked tray at 1440 px: both cadences in
    // one cell, the upcoming runs under the next, the protected count under the retention rules.
    {
      id: 'cadence',
      header: 'Cadence',
      cell: (view) => (
        <dl className="schedule-cadence">
          <dt>Full</dt>
          <dd>{describeCadence(view.full, view.anchor)}</dd>
          <dt>Incremental</dt>
          <dd>{describeCadence(view.incremental, view.anchor)}</dd>
        </dl>
      ),
    },
    {
      id: 'next',
      header: 'Next run',
      cell: (view) => (
        <>
          <NextRun view={view} now={now} />
          <PlannedRuns view={view} />
        </>
      ),
    },
    { id: 'last', header: 'Last run', cell: (view) => <LastRun view={view} /> },
    { id: 'chain', header: 'Chain depth', numeric: true, cell: (view) => view.chainDepth },
    {
      id: 'retention',
      header: 'Retention',
      cell: (view) => (
        <>
          <Link to={paths.retention(view.scope?.treeId ?? '', view.scope?.keyPrefix ?? '')}>
            {view.retentionRules === undefined
              ? 'Not available'
              : view.retentionRules === ''
                ? 'No rules'
                : view.retentionRules}
          </Link>
          {view.protectedCount !== undefined && (
            <span className="table__sub muted">
              {counted(view.protectedCount, 'protected backup')}
            </span>
          )}
        </>
      ),
    },
  ];
  return (
    <Table
      caption="Schedules by scope"
      captionHidden
      columns={columns}
      rows={schedules}
      rowKey={(view) => `${view.scope?.treeId ?? ''}\u0000${view.scope?.keyPrefix ?? ''}`}
    />
  );
}
