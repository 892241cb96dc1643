import { Link } from 'react-router';
import type { Toast } from '../../lib/toast/toast-store';

export interface ToastsProps {
  toasts: readonly Toast[];
  onDismiss: (id: number) => void;
}

/**
 * The toast region. Two live regions: errors are assertive (role="alert"), results polite, so a
 * screen reader announces a failure at once but does not interrupt for a success.
 */
export function Toasts({ toasts, onDismiss }: ToastsProps) {
  const errors = toasts.filter((t) => t.tone === 'error');
  const others = toasts.filter((t) => t.tone !== 'error');
  return (
    <div className="toasts">
      <div role="status" aria-live="polite">
        {others.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} />
        ))}
      </div>
      <div role="alert" aria-live="assertive">
        {errors.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} />
        ))}
      </div>
    </div>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  return (
    <div className={`toast toast--${toast.tone}`}>
      <div className="toast__content">
        <p className="toast__title">{toast.title}</p>
        {toast.detail && <p className="toast__detail">{toast.detail}</p>}
        {toast.technical && (
          <details className="toast__technical">
            <summary>Details</summary>
            <code className="mono">{toast.technical}</code>
          </details>
        )}
        {toast.link && (
          <Link className="toast__link" to={toast.link.to} onClick={() => onDismiss(toast.id)}>
            {toast.link.label}
          </Link>
        )}
      </div>
      <button
        type="button"
        className="toast__close"
        aria-label={`Dismiss: ${toast.title}`}
        onClick={() => onDismiss(toast.id)}
      >
        ×
      </button>
    </div>
  );
}
