import type { ScheduleOverview } from '@store/contract';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Table, type Column } from '../../../components/ui/table';
import { paths } from '../../../lib/paths';
import { counted } from '../../../lib/words';
import { describeLastRun, msOf, relativeTime } from '../utils/schedule-words';
import { describeCadenceIn, shownZone, type ZoneChoice } from '../utils/schedule-zone';
import { ZonedTime } from './zoned-time';

/** A scope as the table names it: "orders" or "orders, key prefix eu/". */
function scopeName(view: ScheduleOverview): string {
  const tree = view.scope?.treeId ?? '';
  return view.scope?.keyPrefix ? `${tree}, key prefix ${view.scope.keyPrefix}` : tree;
}

/** The next full and the next incremental run, each in the zone shown and labelled. */
export function NextRuns({
  view,
  now,
  zone,
}: {
  view: ScheduleOverview;
  now: number;
  zone: string;
}) {
  const kinds = [
    ['Full', view.full],
    ['Incremental', view.incremental],
  ] as const;
  return (
    <dl className="schedule-next">
      {kinds.map(([kind, cadence]) => (
        <Fragment key={kind}>
          <dt>Next {kind.toLowerCase()}</dt>
          <dd>
            {cadence?.nextRunTime ? (
              <>
                <strong>{relativeTime(msOf(cadence.nextRunTime), now)}</strong>{' '}
                <ZonedTime ms={msOf(cadence.nextRunTime)} zone={zone} />
              </>
            ) : (
              <span className="muted">not scheduled</span>
            )}
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** The planned runs with the names their backups get (names are as the server writes them). */
export function PlannedRuns({ view, zone }: { view: ScheduleOverview; zone: string }) {
  if (view.nextRuns.length === 0) return null;
  return (
    <details className="schedule-runs">
      <summary>Next {view.nextRuns.length} runs</summary>
      <ol>
        {view.nextRuns.map((run) => (
          <li key={`${msOf(run.runTime)}-${run.incremental ? 'i' : 'f'}`}>
            <ZonedTime ms={msOf(run.runTime)} zone={zone} /> ·{' '}
            {run.incremental ? 'incremental' : 'full'}
            <br />
            <span className="muted">as “{run.backupName}”</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

/** The scope's restore drill plans with their next runs (the plans live on the scope's page). */
export function DrillPlanRuns({
  view,
  now,
  zone,
}: {
  view: ScheduleOverview;
  now: number;
  zone: string;
}) {
  if (view.drillPlans.length === 0) return null;
  return (
    <dl className="schedule-next">
      {view.drillPlans.map((plan) => (
        <Fragment key={plan.name}>
          <dt>Drill plan {plan.name}</dt>
          <dd>
            {plan.nextRunAt ? (
              <>
                <strong>{relativeTime(msOf(plan.nextRunAt), now)}</strong>{' '}
                <ZonedTime ms={msOf(plan.nextRunAt)} zone={zone} />
              </>
            ) : (
              <span className="muted">{plan.paused ? 'paused' : 'on demand'}</span>
            )}
            <span className="table__sub muted">{plan.choice}</span>
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

function LastRun({ view, zone }: { view: ScheduleOverview; zone: string }) {
  const last = describeLastRun(view.lastRun);
  return (
    <span className="schedule-last">
      <Badge tone={last.tone}>{last.text}</Badge>
      {view.lastRun && (
        <>
          {' '}
          <ZonedTime ms={msOf(view.lastRun.runTime)} zone={zone} />
        </>
      )}
    </span>
  );
}

/** Every schedule of the tenant, a row per scope; stacks into cards on phones. */
export function ScheduleOverviewTable({
  schedules,
  now,
  zoneChoice,
}: {
  schedules: readonly ScheduleOverview[];
  now: number;
  zoneChoice: ZoneChoice;
}) {
  const zoneOf = (view: ScheduleOverview) => shownZone(zoneChoice, view.anchor);
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
          <dd>{describeCadenceIn(view.full, view.anchor, zoneOf(view))}</dd>
          <dt>Incremental</dt>
          <dd>{describeCadenceIn(view.incremental, view.anchor, zoneOf(view))}</dd>
        </dl>
      ),
    },
    {
      id: 'next',
      header: 'Next runs',
      cell: (view) => (
        <>
          <NextRuns view={view} now={now} zone={zoneOf(view)} />
          <PlannedRuns view={view} zone={zoneOf(view)} />
          <DrillPlanRuns view={view} now={now} zone={zoneOf(view)} />
        </>
      ),
    },
    {
      id: 'last',
      header: 'Last run',
      cell: (view) => <LastRun view={view} zone={zoneOf(view)} />,
    },
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
