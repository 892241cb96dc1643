import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import { useStartBackupDiffMutation } from '../../../lib/comparisons/use-backup-comparison';
import { ComparisonView } from '../../../components/comparisons/comparison-view';
import { useBackupNames } from '../../../lib/backups/use-backup-names';
import { BackupRef } from './backup-ref';

/**
 * /backups/compare?from=A&to=B — what changed between two backups of one tree, from their
 * artifacts alone. The diff's operation id joins the URL once started, so a reload shows the same
 * diff instead of starting another.
 */
export function BackupComparePage() {
  const tenant = useActiveTenant();
  const [params, setParams] = useSearchParams();
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const operationId = params.get('diff') ?? '';
  const start = useStartBackupDiffMutation();
  const names = useBackupNames([from, to].filter(Boolean));
  const started = useRef(false);

  useEffect(() => {
    if (operationId || started.current || !from || !to) return;
    started.current = true;
    start.mutate(
      { fromBackupId: from, toBackupId: to },
      {
        onSuccess: (handle) =>
          setParams(
            (current) => {
              const next = new URLSearchParams(current);
              next.set('diff', handle.operationId);
              return next;
            },
            { replace: true },
          ),
      },
    );
  }, [operationId, from, to, start, setParams]);

  return (
    <>
      <PageHeader
        title="Compare backups"
        description={
          <>
            What changed between two backups of one tree in tenant <strong>{tenant}</strong>.
            {/* One aligned row per side: inline, each name's id wrapped under it mid-sentence. */}
            <span className="bk-compare-sides">
              <span className="bk-compare-sides__label">Before</span>
              <BackupLink id={from} name={names.get(from)} />
              <span className="bk-compare-sides__label">After</span>
              <BackupLink id={to} name={names.get(to)} />
            </span>
          </>
        }
      />
      {(!from || !to) && (
        <p>
          Pick two backups in the <Link to={paths.backups}>catalog</Link> to compare them.
        </p>
      )}
      {start.error && <ErrorBanner title="Could not compare the backups" error={start.error} />}
      {start.isPending && <Spinner label="Starting the diff…" />}
      {operationId && (
        <ComparisonView
          operationId={operationId}
          title="Backup diff"
          legend="Before: what the first backup restores. After: what the second restores."
        />
      )}
    </>
  );
}

function BackupLink({ id, name }: { id: string; name: string | undefined }) {
  return id ? (
    <span className="bk-compare-side">
      <BackupRef id={id} name={name} />
    </span>
  ) : (
    <span className="muted">(none)</span>
  );
}
