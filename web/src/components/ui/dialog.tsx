import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  title: string;
  /** Escape, the close button and a click on the backdrop all call it. */
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
}

/**
 * Puts focus back where it was before a dialog opened. The browser does this itself only when a
 * <dialog> is closed with close(); ours are unmounted when `open` turns false, which dropped focus
 * on <body> (and keyboard users back at the top of the page). When the opener is gone (its row
 * was deleted) or can no longer take focus, the page's main landmark gets it instead.
 */
function useReturnFocus(open: boolean) {
  // The opener is read while rendering the opening, before anything inside the dialog (an
  // autoFocus button, showModal) can take the focus.
  const [opener, setOpener] = useState<Element | null>(null);
  const [wasOpen, setWasOpen] = useState(false);
  if (open !== wasOpen) {
    setWasOpen(open);
    setOpener(open ? document.activeElement : null);
  }

  useEffect(() => {
    if (!open) return;
    return () => {
      const target =
        opener instanceof HTMLElement && opener !== document.body && opener.isConnected
          ? opener
          : null;
      target?.focus();
      if (target && document.activeElement === target) return;
      document.getElementById('main')?.focus();
    };
  }, [open, opener]);
}

const FIELDS = 'input:not([type="hidden"]), select, textarea';

/**
 * Where focus goes when a dialog opens: the first form field (of a radio group, its checked
 * choice), else the primary action. The browser's own choice is the first focusable element,
 * which put it on a secondary control such as an id's "Copy" button ahead of the form.
 */
export function initialFocusTarget(dialog: HTMLElement): HTMLElement | null {
  for (const field of dialog.querySelectorAll<HTMLInputElement>(FIELDS)) {
    if (field.disabled || field.closest('[hidden], [inert]')) continue;
    if (field.type === 'radio' && !field.checked) {
      const group = field.form?.elements.namedItem(field.name);
      const anyChecked =
        group instanceof RadioNodeList &&
        Array.from(group).some((r) => (r as HTMLInputElement).checked);
      if (anyChecked) continue;
    }
    return field;
  }
  const primary = dialog.querySelectorAll<HTMLButtonElement>(
    '.btn--primary:not(:disabled), .btn--danger:not(:disabled)',
  );
  return primary.item(primary.length - 1);
}

/**
 * A modal on the native <dialog>: the browser traps focus and closes on Escape; focus returns to
 * the opener however the dialog closes (Escape, Cancel, confirm, backdrop).
 */
export function Dialog({ open, title, onClose, children, footer }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useReturnFocus(open);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      // An element the dialog's content focused itself (autoFocus: Cancel on a destructive
      // confirm) keeps the focus; otherwise the first field or the primary action gets it.
      const chosen = dialog.contains(document.activeElement) ? document.activeElement : null;
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      const target = chosen instanceof HTMLElement ? chosen : initialFocusTarget(dialog);
      target?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="dialog__body">
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        {children}
      </div>
      {footer && <div className="dialog__footer">{footer}</div>}
    </dialog>
  );
}
