import { StoreOperationKind, type StoreOperationStatus } from '@store/contract';
import { useState, type ReactNode } from 'react';
import { CatalogRebuildFacts } from '../../../components/operations/catalog-rebuild-facts';
import { OperationRunSummary } from '../../../components/operations/operation-run-summary';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { useRoles, type Role } from '../../../lib/identity/use-roles';
import { isActiveState } from '../../../lib/operations/operation-kinds';
import { useLatestBackupOperationQuery } from '../../../lib/operations/use-latest-backup-operation-query';
import { useActiveTenant } from '../../../lib/services';
import { useStartRebuildMutation, useStartScrubMutation } from '../api/use-maintenance-mutations';
import { ScrubResult } from './maintenance-results';

/** /maintenance — catalog rebuild and scrub of the active tenant, and their latest results. */
export function MaintenancePage() {
  const tenant = useActiveTenant();
  return (
    <>
      <PageHeader
        title="Catalog maintenance"
        description={
          <>
            Checks and repairs of the backup catalog of tenant <strong>{tenant}</strong>.
          </>
        }
      />
      <div className="maintenance-grid">
        <ScrubPanel />
        <RebuildPanel />
      </div>
    </>
  );
}

function ScrubPanel() {
  const tenant = useActiveTenant();
  const [prune, setPrune] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const start = useStartScrubMutation();
  const latest = useLatestBackupOperationQuery(StoreOperationKind.CATALOG_SCRUB);
  const guard = useRoleGuard('admin');
  const running = !!latest.data && isActiveState(latest.data.state);

  const run = () => start.mutate(prune, { onSettled: () => setConfirming(false) });

  return (
    <section className="panel" aria-labelledby="scrub-title">
      <h2 id="scrub-title" className="panel__title">
        Scrub
      </h2>
      <p className="muted">
        Compares the catalog with the artifact store: catalog rows whose artifacts are missing or
        corrupt, and artifacts no row owns (orphans).
      </p>
      <div className="inline-form">
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={prune}
            onChange={(event) => setPrune(event.target.checked)}
          />
          Prune orphan artifacts (deletes them)
        </label>
        <GuardedButton
          variant={prune ? 'danger' : 'primary'}
          busy={start.isPending}
          allowed={guard.allowed && !running}
          reason={running ? 'A scrub is running' : guard.reason}
          onClick={() => (prune ? setConfirming(true) : run())}
        >
          Start scrub
        </GuardedButton>
      </div>
      <LatestRun title="Latest scrub" query={latest}>
        {(operation) =>
          operation.result.case === 'scrub' && <ScrubResult result={operation.result.value} />
        }
      </LatestRun>
      <ConfirmDialog
        open={confirming}
        title="Scrub and delete orphan artifacts?"
        confirmLabel="Scrub and prune"
        tone="danger"
        busy={start.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={run}
      >
        <p>
          Scrub the catalog of tenant <strong>{tenant}</strong> and delete every artifact in its
          store that no catalog row owns?
        </p>
        <p className="muted">Deleted artifacts cannot be recovered, not even by a rebuild.</p>
      </ConfirmDialog>
    </section>
  );
}

function RebuildPanel() {
  const start = useStartRebuildMutation();
  const latest = useLatestBackupOperationQuery(StoreOperationKind.CATALOG_REBUILD);
  const guard = useRoleGuard('operator');
  const running = !!latest.data && isActiveState(latest.data.state);
  return (
    <section className="panel" aria-labelledby="rebuild-title">
      <h2 id="rebuild-title" className="panel__title">
        Rebuild
      </h2>
      <p className="muted">
        Reads every manifest in the artifact store and re-creates the catalog rows that are missing,
        for example after the database was restored from an older copy.
      </p>
      <div className="inline-form">
        <GuardedButton
          variant="primary"
          busy={start.isPending}
          allowed={guard.allowed && !running}
          reason={running ? 'A rebuild is running' : guard.reason}
          onClick={() => start.mutate()}
        >
          Start rebuild
        </GuardedButton>
      </div>
      <LatestRun title="Latest rebuild" query={latest}>
        {(operation) =>
          operation.result.case === 'rebuild' && (
            <CatalogRebuildFacts result={operation.result.value} />
          )
        }
      </LatestRun>
    </section>
  );
}

interface LatestRunProps {
  title: string;
  query: ReturnType<typeof useLatestBackupOperationQuery>;
  children: (operation: StoreOperationStatus) => ReactNode;
}

function LatestRun({ title, query, children }: LatestRunProps) {
  if (query.isPending) return <Spinner label={`Loading the ${title.toLowerCase()}…`} />;
  if (query.error) {
    return (
      <ErrorBanner
        title={`Could not load the ${title.toLowerCase()}`}
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (!query.data) return <p className="muted">Never run in this tenant.</p>;
  return (
    <>
      <h3>{title}</h3>
      <OperationRunSummary operation={query.data}>{children(query.data)}</OperationRunSummary>
    </>
  );
}

/** Rebuild needs operator, scrub admin (DESIGN.md §4); neither has a tree to probe. */
function useRoleGuard(role: Role) {
  const roles = useRoles();
  if (roles.atLeast(role)) return { allowed: true, reason: '' };
  return {
    allowed: false,
    reason: roles.isLoading ? 'Checking your role…' : roles.needs(role),
  };
}
