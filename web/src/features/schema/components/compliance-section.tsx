import { ErrorText } from '../../../components/ui/error-text';
import { StoreSchemaApiOperation, type StoreOperationStatus } from '@store/contract';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { OperationProgress } from '../../../components/operations/operation-progress';
import { SubjectName } from '../../../components/identity/subject-name';
import { OperationStateBadge } from '../../../components/operations/operation-state-badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyableId } from '../../../components/ui/copyable-id';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { Spinner } from '../../../components/ui/spinner';
import { Table } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import type { Capabilities } from '../../../lib/capabilities/capabilities';
import { formatCount } from '../../../lib/format';
import { isActiveState } from '../../../lib/operations/operation-kinds';
import { useActiveTenant } from '../../../lib/services';
import {
  useCancelComplianceScanMutation,
  useListComplianceScansQuery,
  useStartComplianceScanMutation,
} from '../api/use-compliance-scans';
import { ComplianceReportView } from './compliance-report';
import { SchemaSection } from '../../../components/schema/schema-section';

type SchemaCaps = Capabilities<StoreSchemaApiOperation>;

/** URL search param naming the scan whose report is shown (default: the newest). */
const SCAN_PARAM = 'scan';

/** Compliance scans of the tree against its policy: start, list, cancel, report. */
export function ComplianceSection({ treeId, caps }: { treeId: string; caps: SchemaCaps }) {
  const query = useListComplianceScansQuery(treeId);
  const start = useStartComplianceScanMutation(treeId);
  const [params, setParams] = useSearchParams();
  const scans = query.data?.operations ?? [];
  const selected = scans.find((s) => s.operationId === params.get(SCAN_PARAM)) ?? scans[0];

  const select = (scan: StoreOperationStatus) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set(SCAN_PARAM, scan.operationId);
        return next;
      },
      { replace: true },
    );

  return (
    <SchemaSection
      id="compliance"
      title="Compliance scans"
      actions={
        <GuardedButton
          variant="primary"
          busy={start.isPending}
          onClick={() =>
            start.mutate(undefined, {
              // A new scan becomes the one shown.
              onSuccess: () =>
                setParams(
                  (current) => {
                    const next = new URLSearchParams(current);
                    next.delete(SCAN_PARAM);
                    return next;
                  },
                  { replace: true },
                ),
            })
          }
          {...caps.guard(StoreSchemaApiOperation.START_COMPLIANCE_SCAN)}
        >
          Start compliance scan
        </GuardedButton>
      }
    >
      {start.isError && (
        <div className="field__error" role="alert">
          <ErrorText error={start.error} lead="Refused:" />
        </div>
      )}
      {query.isPending ? (
        <Spinner label="Loading compliance scans…" />
      ) : query.isError ? (
        <ErrorBanner
          title="Could not load compliance scans"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <>
          <Table
            caption="Compliance scans, newest first"
            captionHidden
            columns={[
              { id: 'created', header: 'Started', cell: (s) => <Time value={s.createdAt} /> },
              {
                id: 'state',
                header: 'State',
                cell: (s) => (
                  <OperationStateBadge
                    state={s.state}
                    cancelRequested={s.cancelRequested}
                    operation={s}
                  />
                ),
              },
              { id: 'by', header: 'By', cell: (s) => <SubjectName subject={s.createdBy} /> },
              {
                id: 'result',
                header: 'Non-compliant / scanned',
                numeric: true,
                cell: (s) =>
                  s.result.case === 'complianceReport'
                    ? `${formatCount(s.result.value.nonCompliant)} / ${formatCount(s.result.value.scanned)}`
                    : '—',
              },
              {
                id: 'actions',
                header: 'Actions',
                cell: (s) => (
                  <div className="schema-actions">
                    <Button
                      variant="ghost"
                      aria-pressed={s === selected}
                      aria-label={`Show scan ${s.operationId}`}
                      onClick={() => select(s)}
                    >
                      Show
                    </Button>
                    {isActiveState(s.state) && (
                      <CancelScanButton treeId={treeId} scan={s} caps={caps} />
                    )}
                  </div>
                ),
              },
            ]}
            rows={scans}
            rowKey={(s) => s.operationId}
            empty={
              <EmptyState title="No compliance scans yet">
                A scan checks every value against the tree&apos;s policy.
              </EmptyState>
            }
          />
          {selected && <SelectedScan scan={selected} />}
        </>
      )}
    </SchemaSection>
  );
}

function SelectedScan({ scan }: { scan: StoreOperationStatus }) {
  return (
    <div className="stack schema-scan" aria-live="polite">
      <h3 className="schema-subtitle">Scan</h3>
      <CopyableId id={scan.operationId} label="scan operation id" />
      {isActiveState(scan.state) && <OperationProgress operation={scan} />}
      {scan.error && (
        <div className="field__error">
          <ErrorText operationError={scan.error} />
        </div>
      )}
      {scan.result.case === 'complianceReport' && (
        <ComplianceReportView report={scan.result.value} />
      )}
    </div>
  );
}

function CancelScanButton({
  treeId,
  scan,
  caps,
}: {
  treeId: string;
  scan: StoreOperationStatus;
  caps: SchemaCaps;
}) {
  const tenant = useActiveTenant();
  const [confirming, setConfirming] = useState(false);
  const cancel = useCancelComplianceScanMutation(treeId);
  const guard = caps.guard(StoreSchemaApiOperation.CANCEL_COMPLIANCE_SCAN);
  return (
    <>
      <GuardedButton
        variant="danger"
        onClick={() => setConfirming(true)}
        {...(scan.cancelRequested
          ? { allowed: false, reason: 'Cancellation already requested' }
          : guard)}
      >
        Cancel
      </GuardedButton>
      <ConfirmDialog
        open={confirming}
        title="Cancel this compliance scan?"
        confirmLabel="Cancel scan"
        cancelLabel="Keep running"
        tone="danger"
        busy={cancel.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => cancel.mutate(scan, { onSettled: () => setConfirming(false) })}
      >
        <p>
          Cancel scan <strong className="mono">{scan.operationId}</strong> of tree{' '}
          <strong>{treeId}</strong> in tenant <strong>{tenant}</strong>?
        </p>
      </ConfirmDialog>
    </>
  );
}
