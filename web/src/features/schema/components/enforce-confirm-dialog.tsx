import { Button } from '../../../components/ui/button';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { Dialog } from '../../../components/ui/dialog';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { isActiveState } from '../../../lib/operations/operation-kinds';
import {
  enforceConsequence,
  enforceUnknown,
  sameSchema,
  type EnforceAction,
} from '../utils/enforce-confirm';
import { useSchemaInsightOperationQuery } from '../../../lib/schema/use-schema-insight-operation-query';
import type { PolicyDryRunState } from './policy-dry-run';

export interface EnforceConfirmDialogProps {
  /** Saving the policy (applies at once) or starting a remediation (applies when it succeeds). */
  action: EnforceAction;
  treeId: string;
  tenant: string;
  /** The schema text about to be enforced. */
  jsonSchema: string;
  dryRun: PolicyDryRunState;
  busy: boolean;
  onEnforce: () => void;
  onAudit: () => void;
  onRunDryRun: () => void;
  onCancel: () => void;
}

const WORDS = {
  policy: {
    title: (treeId: string) => `Enforce this policy on ${treeId}?`,
    verb: 'Save',
  },
  remediation: {
    title: (treeId: string) => `Remediate ${treeId} and enforce the target policy?`,
    verb: 'Start',
  },
} as const;

/**
 * Asked before an action makes the tree refuse writes (issue 33): it repeats what the dry run of
 * this very schema said, suggests Audit first when existing entries would fail, and without a dry
 * run of this schema says so and offers one.
 */
export function EnforceConfirmDialog({
  action,
  treeId,
  tenant,
  jsonSchema,
  dryRun,
  busy,
  onEnforce,
  onAudit,
  onRunDryRun,
  onCancel,
}: EnforceConfirmDialogProps) {
  const matching = dryRun.run !== null && sameSchema(dryRun.run.jsonSchema, jsonSchema);
  const status = useSchemaInsightOperationQuery(matching ? dryRun.run?.operationId : undefined);
  const current = matching ? status.data : undefined;
  const report = current?.result.case === 'dryRun' ? current.result.value : undefined;
  const running = matching && (!current || isActiveState(current.state));
  const failing = report !== undefined && report.failing > 0n;
  // A dry run of this schema that ended without a report (failed or cancelled) counts as none.
  const offerDryRun = !matching || (!running && !report);
  const { title, verb } = WORDS[action];

  return (
    <Dialog
      open
      title={title(treeId)}
      onClose={onCancel}
      footer={
        <DialogActions
          dismiss={
            <Button onClick={onCancel} disabled={busy} autoFocus>
              Cancel
            </Button>
          }
          others={
            offerDryRun && (
              <Button onClick={onRunDryRun} disabled={busy}>
                Run a dry run first
              </Button>
            )
          }
          // When entries would fail, Audit is the suggested action and Enforce the dangerous one:
          // both stay on the primary side, the dialog's own action (Enforce) last.
          primary={
            <>
              {failing && (
                <Button variant="primary" onClick={onAudit} disabled={busy}>
                  {verb} as Audit instead
                </Button>
              )}
              <Button variant={failing ? 'danger' : 'primary'} onClick={onEnforce} busy={busy}>
                {verb} as Enforce
              </Button>
            </>
          }
        />
      }
    >
      <div className="dialog__message" data-testid="enforce-confirm">
        <p>
          Tree <strong>{treeId}</strong> in tenant <strong>{tenant}</strong>.
        </p>
        {report ? (
          <p>
            <strong>{enforceConsequence(report, action)}</strong>
          </p>
        ) : (
          <p>{enforceUnknown(action, running ? 'running' : matching ? 'unfinished' : 'none')}</p>
        )}
        {running && current && (
          <ProgressBar
            label="Dry-run progress"
            done={current.progress?.done ?? 0n}
            total={current.progress?.total ?? 0n}
            unit={current.progress?.unit}
          />
        )}
        {failing && (
          <p>
            Consider Audit first: writes still apply and compliance scans list the entries that
            fail, so they can be fixed before anything is refused.
          </p>
        )}
      </div>
    </Dialog>
  );
}
