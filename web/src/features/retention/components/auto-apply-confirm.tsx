import { RetentionAction } from '@store/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorText } from '../../../components/ui/error-text';
import { Spinner } from '../../../components/ui/spinner';
import { Time } from '../../../components/ui/time';
import { formatBytes } from '../../../lib/format';
import { counted } from '../../../lib/words';
import type { WireRules } from '../utils/rules-draft';
import { useRetentionPreviewQuery, type RetentionScope } from '../api/use-retention';

/** How many of the backups the rules would delete now the confirm names. */
const NAMED = 8;

/**
 * The confirm of turning on "apply after each scheduled backup": retention would then delete
 * without anyone looking at a preview, so the save shows what these rules would delete now
 * (the preview of exactly the rules being saved) and the admin confirms that choice.
 */
export function AutoApplyConfirm({
  open,
  scope,
  scopeLabel,
  rules,
  busy,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  scope: RetentionScope;
  scopeLabel: string;
  /** The rules being saved. */
  rules: WireRules | undefined;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const preview = useRetentionPreviewQuery(scope, rules, { enabled: open && rules !== undefined });
  // The previous rules' answer stays in the cache while these load: never shown as theirs.
  const current = preview.data && !preview.isPlaceholderData ? preview.data : undefined;
  const deleted = current?.entries.filter((e) => e.action === RetentionAction.DELETE) ?? [];
  return (
    <ConfirmDialog
      open={open}
      title={`Apply these rules by themselves after each scheduled backup of ${scopeLabel}?`}
      confirmLabel="Save and apply after each backup"
      cancelLabel="Not now"
      busy={busy}
      confirmDisabled={current === undefined}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <div className="stack" data-testid="auto-apply-confirm">
        <p>
          After each scheduled backup of {scopeLabel}, retention will delete what these rules say,
          without a preview and without asking. The run is listed on the Operations page and in the
          tray, and each deletion in the audit trail.
        </p>
        {preview.isError ? (
          <div role="alert">
            <ErrorText error={preview.error} lead="No preview of these rules:" />
          </div>
        ) : current === undefined ? (
          <Spinner label="Previewing what these rules delete now…" />
        ) : current.deleteCount === 0n ? (
          <p data-testid="auto-apply-now">
            <strong>Now, they would delete nothing</strong>: {counted(current.keepCount, 'backup')}{' '}
            kept.
          </p>
        ) : (
          <div data-testid="auto-apply-now">
            <p>
              <strong>
                Now, they would delete {counted(current.deleteCount, 'backup')} (
                {formatBytes(current.bytesFreed)})
              </strong>
              ; {counted(current.keepCount, 'backup')} kept:
            </p>
            <ul className="plain-list">
              {deleted.slice(0, NAMED).map((entry) => (
                <li key={entry.backupId}>
                  {entry.name || entry.backupId}{' '}
                  <span className="muted">
                    <Time value={entry.createdAt} compact />, {formatBytes(entry.byteSize)}
                  </span>
                </li>
              ))}
              {current.deleteCount > BigInt(Math.min(NAMED, deleted.length)) && (
                <li className="muted">
                  and{' '}
                  {counted(
                    current.deleteCount - BigInt(Math.min(NAMED, deleted.length)),
                    'more',
                    'more',
                  )}
                </li>
              )}
            </ul>
          </div>
        )}
        <p className="muted">
          A run that would delete the newest healthy backup of the scope, or more than the share the
          server allows (half unless it is set otherwise), stops and deletes nothing, and says why.
        </p>
      </div>
    </ConfirmDialog>
  );
}
