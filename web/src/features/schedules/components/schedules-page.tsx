import { durationToMs, StoreBackupApiOperation } from '@store/contract';
import { Link, useSearchParams } from 'react-router';
import type { SchedulePageSection } from '../../../components/schedules/scope-section';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { useBackupCapabilities } from '../../../lib/capabilities/use-backup-capabilities';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import { useScopeSchedulesQuery } from '../api/use-list-schedules-query';
import { useScopeStatusQuery, type ScheduleScope } from '../api/use-scope-status-query';
import { KeyPrefixPicker } from './key-prefix-picker';
import { scheduleZone, shownZone } from '../utils/schedule-zone';
import { describeScope } from './cadence-fieldset';
import { NextRuns, PlannedRuns } from './schedule-overview-table';
import { ScheduleForm } from './schedule-form';
import { ScopeStatusPanel } from './scope-status-panel';
import { TreePicker } from './tree-picker';
import { useZoneChoice, ZoneSwitch } from './zone-switch';

/**
 * /schedules?tree=…&prefix=… — a scope's status and its full and incremental schedules. A scope
 * is tree + key prefix (none: the whole tree); each has schedules of its own. `sections` follow
 * the scope's own (the restore drill plans, composed by the route).
 */
export function SchedulesPage({ sections = [] }: { sections?: readonly SchedulePageSection[] }) {
  const tenant = useActiveTenant();
  const [params, setParams] = useSearchParams();
  const treeId = params.get('tree') ?? '';
  const keyPrefix = params.get('prefix') ?? '';
  const selectScope = (next: ScheduleScope) =>
    setParams(
      {
        ...(next.treeId !== '' && { tree: next.treeId }),
        ...(next.keyPrefix !== '' && { prefix: next.keyPrefix }),
      },
      { replace: true },
    );

  return (
    <>
      <PageHeader
        title="Schedules"
        description={
          <>
            Recurring full and incremental backups per scope (a tree, or a key prefix of it) in
            tenant <strong>{tenant}</strong>.
          </>
        }
        actions={
          <>
            {treeId !== '' && (
              <Link className="btn btn--secondary" to={paths.retention(treeId, keyPrefix)}>
                Retention
              </Link>
            )}
            <Link className="btn btn--secondary" to={paths.schedulesOverview}>
              All schedules
            </Link>
          </>
        }
      />
      <TreePicker value={treeId} onChange={(next) => selectScope({ treeId: next, keyPrefix })} />
      <KeyPrefixPicker
        key={keyPrefix}
        value={keyPrefix}
        onChange={(next) => selectScope({ treeId, keyPrefix: next })}
      />
      {treeId === '' ? (
        <EmptyState title="Choose a tree">
          Its schedules, last runs and outcomes appear here.
        </EmptyState>
      ) : (
        <ScopeSchedules
          key={`${treeId}\u0000${keyPrefix}`}
          scope={{ treeId, keyPrefix }}
          sections={sections}
        />
      )}
    </>
  );
}

function ScopeSchedules({
  scope,
  sections,
}: {
  scope: ScheduleScope;
  sections: readonly SchedulePageSection[];
}) {
  const tenant = useActiveTenant();
  const { treeId } = scope;
  const status = useScopeStatusQuery(scope);
  const settings = useScopeSchedulesQuery(scope);
  const capabilities = useBackupCapabilities(treeId);
  const [zoneChoice, setZoneChoice] = useZoneChoice();

  if (status.isPending) return <Spinner label="Loading the scope status…" />;
  if (status.isError) {
    return (
      <ErrorBanner
        title={`Could not load the status of ${describeScope(scope)}`}
        error={status.error}
        onRetry={() => void status.refetch()}
      />
    );
  }
  if (status.data === null) {
    return (
      <EmptyState title={`Unknown tree ${treeId}`}>
        Tenant {tenant} has no tree named {treeId}. Choose another tree.
      </EmptyState>
    );
  }

  const data = status.data;
  const canSchedule = capabilities.can(StoreBackupApiOperation.SCHEDULE_BACKUP);
  const view = settings.data ?? null;
  const zone = shownZone(zoneChoice, view?.anchor);
  const registered = {
    full: data.fullScheduleRegistered ? durationToMs(data.runtimeFullBackupInterval) : null,
    incremental: data.incrementalScheduleRegistered
      ? durationToMs(data.runtimeIncrementalBackupInterval)
      : null,
  };
  return (
    <div className="stack">
      <ZoneSwitch
        value={zoneChoice}
        onChange={setZoneChoice}
        scheduleZone={scheduleZone(view?.anchor)}
      />
      <ScopeStatusPanel status={data} zone={zone} />
      {view && (
        <section className="panel" aria-labelledby="schedule-next-runs">
          <h2 id="schedule-next-runs" className="panel__title">
            Next runs
          </h2>
          <NextRuns view={view} now={Date.now()} zone={zone} />
          <PlannedRuns view={view} zone={zone} />
        </section>
      )}
      {settings.isSuccess && (
        // Starts from the settings first read; after a save the form already holds them.
        <ScheduleForm
          scope={scope}
          registered={registered}
          current={settings.data}
          zone={zone}
          capabilities={capabilities}
        />
      )}
      {!capabilities.isLoading && !canSchedule && (
        <p className="muted">Registering schedules needs the operator role in tenant {tenant}.</p>
      )}
      {sections.map(({ id, render }) => (
        <div key={id}>{render(scope, zone)}</div>
      ))}
    </div>
  );
}
