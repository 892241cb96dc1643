import type { ReactNode } from 'react';

export interface DialogActionsProps {
  /** The way out that changes nothing: Cancel, Close, Keep it. Always on the left. */
  dismiss?: ReactNode;
  /** Secondary actions (Back, Run a dry run first), between the two. */
  others?: ReactNode;
  /** The one action the dialog is for. Always last, on the right. */
  primary?: ReactNode;
}

/**
 * The row of buttons at the foot of every dialog, in one order everywhere: the way out on the
 * left, the dialog's own action on the right (right-aligned, so the primary button is always at
 * the same place). Dialogs pass their buttons by role, never in their own order.
 */
export function DialogActions({ dismiss, others, primary }: DialogActionsProps) {
  return (
    <div className="dialog-actions" data-testid="dialog-actions">
      {dismiss}
      {others}
      {primary}
    </div>
  );
}
