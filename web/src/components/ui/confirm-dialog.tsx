import type { ReactNode } from 'react';
import { Button } from './button';
import { DialogActions } from './dialog-actions';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** Say what will happen and to what, naming the tenant for anything destructive. */
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: 'primary' | 'danger';
  busy?: boolean;
  /** The confirm button stays disabled until what it needs is there (an acknowledgment). */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Keep it',
  tone = 'primary',
  busy = false,
  confirmDisabled = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={onCancel}
      footer={
        <DialogActions
          dismiss={
            <Button onClick={onCancel} disabled={busy} autoFocus>
              {cancelLabel}
            </Button>
          }
          primary={
            <Button variant={tone} onClick={onConfirm} busy={busy} disabled={confirmDisabled}>
              {confirmLabel}
            </Button>
          }
        />
      }
    >
      <div className="dialog__message">{children}</div>
    </Dialog>
  );
}
