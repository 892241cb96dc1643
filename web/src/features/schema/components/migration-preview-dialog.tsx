import { ErrorText } from '../../../components/ui/error-text';
import type { MigrationPreviewReport } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { Spinner } from '../../../components/ui/spinner';
import { isActiveState } from '../../../lib/operations/operation-kinds';
import { useStartMigrationPreviewMutation } from '../api/use-migration-preview';
import { useSchemaInsightOperationQuery } from '../../../lib/schema/use-schema-insight-operation-query';
import { entries, MigrationPreviewReportView } from './migration-preview-report';

export interface MigrationPreviewDialogProps {
  treeId: string;
  /** Absent: StartMigration to the config's target. Present: StartAdvanceAndMigrate to it. */
  newTarget: number | undefined;
  /** The target the config has now (named in the title of a plain migration). */
  configTarget: number;
  /** Starts the real run; the dialog stays open (busy) until the caller closes it. */
  onConfirm: () => void;
  confirming: boolean;
  /** Why the run was refused, shown in the dialog. */
  confirmError: unknown;
  onClose: () => void;
}

/** The confirm button's words: what the run will do, by count. */
function confirmLabel(report: MigrationPreviewReport | undefined, anyway: boolean): string {
  if (!report) return 'Migrate';
  const dead = report.wouldDeadLetter > 0n ? ` and dead-letter ${report.wouldDeadLetter}` : '';
  return `Migrate ${entries(report.wouldChange)}${dead}${anyway ? ' anyway' : ''}`;
}

/**
 * No single click rewrites a tree: "Start migration" and "Advance and migrate" open this
 * dialog, which previews the run (a tracked, read-only MIGRATION_PREVIEW), shows what it would
 * change, and only then offers the run. Before running it reads the preview's status again, and
 * if the tree, its config or its policy changed since, says so and asks once more.
 */
export function MigrationPreviewDialog({
  treeId,
  newTarget,
  configTarget,
  onConfirm,
  confirming,
  confirmError,
  onClose,
}: MigrationPreviewDialogProps) {
  const start = useStartMigrationPreviewMutation(treeId);
  const [operationId, setOperationId] = useState<string>();
  const [staleSeen, setStaleSeen] = useState(false);
  const status = useSchemaInsightOperationQuery(operationId);
  const started = useRef(false);

  const preview = () => {
    setStaleSeen(false);
    setOperationId(undefined);
    start.mutate(newTarget, { onSuccess: (handle) => setOperationId(handle.operationId) });
  };
  useEffect(() => {
    // Once per dialog: React's development double effects must not start two previews.
    if (started.current) return;
    started.current = true;
    preview();
  });

  const current = status.data;
  const report = current?.result.case === 'migrationPreview' ? current.result.value : undefined;
  const stale = report?.treeChanged === true;

  const confirm = async () => {
    // The preview is only worth its numbers while the tree is the one it read.
    const fresh = await status.refetch();
    const result = fresh.data?.result;
    const changed = result?.case === 'migrationPreview' && result.value.treeChanged;
    if (changed && !staleSeen) {
      setStaleSeen(true);
      return;
    }
    onConfirm();
  };

  const title =
    newTarget === undefined
      ? `Migrate ${treeId} to version ${configTarget}`
      : `Advance ${treeId} to version ${newTarget} and migrate`;
  return (
    <Dialog
      open
      title={title}
      onClose={onClose}
      footer={
        <DialogActions
          dismiss={
            <Button onClick={onClose} disabled={confirming}>
              Cancel
            </Button>
          }
          others={
            stale && (
              <Button onClick={preview} disabled={confirming || start.isPending}>
                Preview again
              </Button>
            )
          }
          primary={
            <Button
              variant="primary"
              busy={confirming}
              disabled={!report}
              onClick={() => void confirm()}
            >
              {confirmLabel(report, stale && staleSeen)}
            </Button>
          }
        />
      }
    >
      <section className="migration-preview stack" aria-label="Migration preview" tabIndex={0}>
        <p className="muted">
          A preview reads every entry as the migration would, without writing anything.
        </p>
        {start.error && <ErrorBanner title="Could not preview the migration" error={start.error} />}
        {start.isPending && <Spinner label="Starting the preview…" />}
        {current && isActiveState(current.state) && (
          <ProgressBar
            label="Preview progress"
            done={current.progress?.done ?? 0n}
            total={current.progress?.total ?? 0n}
            unit={current.progress?.unit}
          />
        )}
        {current?.error && (
          <div className="field__error" role="alert">
            <ErrorText operationError={current.error} lead="The preview failed:" />
          </div>
        )}
        {stale && (
          <div className="warning-banner" role="alert">
            <p>
              The tree, its version config or its policy changed since this preview: the migration
              would not do exactly what it shows.{' '}
              {staleSeen ? 'Preview again, or migrate anyway.' : 'Preview again to be sure.'}
            </p>
          </div>
        )}
        {report && <MigrationPreviewReportView report={report} />}
        {confirmError !== null && confirmError !== undefined && (
          <div className="field__error" role="alert">
            <ErrorText error={confirmError} lead="Refused:" />
          </div>
        )}
      </section>
    </Dialog>
  );
}
