import type { RestoreDrillPlan } from '@store/contract';
import { useState } from 'react';
import type { SchedulePageScope } from '../../../components/schedules/scope-section';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { Spinner } from '../../../components/ui/spinner';
import { Table, type Column } from '../../../components/ui/table';
import { useRoles } from '../../../lib/identity/use-roles';
import { useActiveTenant, useToast } from '../../../lib/services';
import {
  useDeleteDrillPlanMutation,
  useRunDrillPlanNowMutation,
} from '../api/use-drill-plan-mutations';
import { useScopeDrillPlansQuery } from '../api/use-drill-plans-query';
import { describeChoice, describeLastRun, describeWhen, msOf } from '../utils/drill-plan-words';
import { DrillPlanFormDialog } from './drill-plan-form-dialog';

type Open =
  { kind: 'form'; plan: RestoreDrillPlan | null } | { kind: 'delete'; plan: RestoreDrillPlan };

/** A time in the zone the schedules page shows, with the zone named. */
function zoned(ms: number, zone: string): string {
  return `${new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(ms)} (${zone})`;
}

function scopeWords(scope: SchedulePageScope): string {
  return scope.keyPrefix === '' ? scope.treeId : `${scope.treeId} under ${scope.keyPrefix}`;
}

/**
 * A scope's restore drill plans on the schedules page: when each runs, which backup it drills,
 * how its last run went. Operators create, edit, run now and delete; other roles read.
 */
export function DrillPlansSection({ scope, zone }: { scope: SchedulePageScope; zone: string }) {
  const tenant = useActiveTenant();
  const toast = useToast();
  const roles = useRoles();
  const canChange = roles.atLeast('operator');
  const plans = useScopeDrillPlansQuery(scope);
  const runNow = useRunDrillPlanNowMutation();
  const remove = useDeleteDrillPlanMutation();
  const [open, setOpen] = useState<Open | null>(null);
  const close = () => setOpen(null);
  const guard = { allowed: canChange, reason: roles.needs('operator'), disabled: roles.isLoading };

  const run = (plan: RestoreDrillPlan) =>
    runNow.mutate(
      { scope, name: plan.name },
      {
        onSuccess: () => toast({ tone: 'success', title: `Drill of plan ${plan.name} started` }),
      },
    );

  const columns: Column<RestoreDrillPlan>[] = [
    { id: 'name', header: 'Plan', cell: (plan) => <strong>{plan.name}</strong> },
    {
      id: 'when',
      header: 'When',
      cell: (plan) => (
        <>
          {describeWhen(plan)}
          {plan.paused && (
            <>
              {' '}
              <Badge tone="warning">Paused</Badge>
            </>
          )}
          <span className="table__sub muted">
            {plan.nextRunAt ? `Next: ${zoned(msOf(plan.nextRunAt), zone)}` : 'No planned run'}
          </span>
        </>
      ),
    },
    { id: 'choice', header: 'Backup drilled', cell: (plan) => describeChoice(plan) },
    {
      id: 'last',
      header: 'Last run',
      cell: (plan) => {
        const last = describeLastRun(plan.lastRun);
        return (
          <>
            <Badge tone={last.tone}>{last.text}</Badge>
            {plan.lastRun && (
              <span className="table__sub muted">
                {zoned(msOf(plan.lastRun.runAt), zone)}: {plan.lastRun.reason}
              </span>
            )}
          </>
        );
      },
    },
    {
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      cell: (plan) => (
        <div className="drill-plans__actions">
          <GuardedButton
            {...guard}
            busy={runNow.isPending && runNow.variables?.name === plan.name}
            onClick={() => run(plan)}
            aria-label={`Run drill plan ${plan.name} now`}
          >
            Run now
          </GuardedButton>
          {canChange && (
            <>
              <Button
                onClick={() => setOpen({ kind: 'form', plan })}
                aria-label={`Edit drill plan ${plan.name}`}
              >
                Edit
              </Button>
              <Button
                variant="danger"
                onClick={() => setOpen({ kind: 'delete', plan })}
                aria-label={`Delete drill plan ${plan.name}`}
              >
                Delete
              </Button>
            </>
          )}
        </div>
      ),
    },
  ];

  return (
    <section className="panel" aria-labelledby="drill-plans">
      <div className="drill-plans__header">
        <h2 id="drill-plans" className="panel__title">
          Restore drill plans
        </h2>
        <GuardedButton
          {...guard}
          variant="primary"
          onClick={() => setOpen({ kind: 'form', plan: null })}
        >
          New drill plan
        </GuardedButton>
      </div>
      <p className="muted">
        A drill restores a backup of {scopeWords(scope)} into a scratch tree, checks it against what
        its capture recorded and drops the scratch tree; the scope&apos;s data is not touched.
      </p>
      {plans.isPending ? (
        <Spinner label="Loading the drill plans…" />
      ) : plans.isError ? (
        <ErrorBanner
          title={`Could not load the drill plans of ${scopeWords(scope)}`}
          error={plans.error}
          onRetry={() => void plans.refetch()}
        />
      ) : (
        <Table
          caption={`Restore drill plans of ${scopeWords(scope)}`}
          captionHidden
          columns={columns}
          rows={plans.data}
          rowKey={(plan) => plan.name}
          empty={
            <EmptyState title="No drill plans">
              A plan proves this scope&apos;s backups restore, on a schedule or on demand.
            </EmptyState>
          }
        />
      )}
      {open?.kind === 'form' && (
        <DrillPlanFormDialog scope={scope} plan={open.plan} onClose={close} />
      )}
      {open?.kind === 'delete' && (
        <ConfirmDialog
          open
          title={`Delete drill plan ${open.plan.name}?`}
          confirmLabel="Delete plan"
          cancelLabel="Keep plan"
          tone="danger"
          busy={remove.isPending}
          onCancel={close}
          onConfirm={() =>
            remove.mutate(
              { scope, name: open.plan.name },
              {
                onSuccess: (answer) => {
                  toast({
                    tone: 'success',
                    title: 'Drill plan deleted',
                    detail: answer.removed,
                  });
                  close();
                },
              },
            )
          }
        >
          <p>
            Delete the plan <strong>{open.plan.name}</strong> of {scopeWords(scope)} in tenant{' '}
            <strong>{tenant}</strong>? Its planned runs stop.
          </p>
          <p className="muted">
            Only the plan goes: the drills it ran stay in the drill history, and no backup is
            touched.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
