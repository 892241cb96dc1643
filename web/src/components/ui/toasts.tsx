import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { Toast } from '../../lib/toast/toast-store';
import { usePublishedHeight } from '../../lib/use-published-height';

export interface ToastsProps {
  toasts: readonly Toast[];
  onDismiss: (id: number) => void;
}

/** Room kept between the toasts and what they must not cover, in px. */
const GAP = 8;

/**
 * The toast region. Two live regions: errors are assertive (role="alert"), results polite, so a
 * screen reader announces a failure at once but does not interrupt for a success.
 *
 * Toasts never cover what they announce: the page keeps room below its content as tall as the
 * toasts (--toasts-height, read by .shell__main), and when a toast appears over the result it
 * names (Toast.result) or the control the user just pressed, the window scrolls that above them.
 */
export function Toasts({ toasts, onDismiss }: ToastsProps) {
  const region = useRef<HTMLDivElement>(null);
  const errors = toasts.filter((t) => t.tone === 'error');
  const others = toasts.filter((t) => t.tone !== 'error');
  const newest = toasts.at(-1);
  const newestId = newest?.id;
  const newestResult = newest?.result;

  usePublishedHeight(region, '--toasts-height');

  useEffect(() => {
    if (newestId === undefined) return;
    const focused = document.activeElement;
    // The result may be drawn a little after the toast (its page renders apart from the toast
    // store), and the page may still move as its queries refresh: check on each frame for about
    // a second.
    let frames = 0;
    let frame = 0;
    // Where this loop left the window: once anything else scrolls it (the reader, or a click on
    // something further up), the loop stops, so nobody is pulled back to the result.
    let leftAt: number | undefined;
    const look = () => {
      if (leftAt !== undefined && Math.abs(window.scrollY - leftAt) > 1) return;
      const result = newestResult ? document.getElementById(newestResult) : null;
      const target =
        result ??
        (!newestResult && focused instanceof HTMLElement && focused !== document.body
          ? focused
          : null);
      if (region.current && target) keepUncovered(target, region.current, result !== null);
      leftAt = window.scrollY;
      if (++frames < 60) frame = requestAnimationFrame(look);
    };
    frame = requestAnimationFrame(look);
    return () => cancelAnimationFrame(frame);
  }, [newestId, newestResult]);

  return (
    <div className="toasts" ref={region}>
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

/**
 * Scrolls the window so `target` is clear of the toasts, and (`bringIntoView`: a named result)
 * in view: its bottom just above them (or above the window's edge where they are beside it),
 * never so far that its top leaves.
 */
function keepUncovered(target: HTMLElement, region: HTMLElement, bringIntoView: boolean): void {
  const toasts = [...region.querySelectorAll('.toast')].map((t) => t.getBoundingClientRect());
  if (toasts.length === 0) return;
  const box = target.getBoundingClientRect();
  const left = Math.min(...toasts.map((r) => r.left));
  const right = Math.max(...toasts.map((r) => r.right));
  const top = Math.min(...toasts.map((r) => r.top));
  const bottom = Math.max(...toasts.map((r) => r.bottom));
  const under = box.right > left && box.left < right;
  const limit = (under ? top : window.innerHeight) - GAP;
  if (box.top >= 0 && box.bottom <= limit) return;
  // A control the user left scrolled away is not pulled back; only one under the toasts moves.
  const covered = under && box.bottom > top && box.top < bottom;
  if (!bringIntoView && !covered) return;
  const by = box.top < 0 ? box.top - GAP : Math.min(box.bottom - limit, box.top - GAP);
  if (by !== 0) window.scrollBy({ top: by });
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  // On phones a toast is one line (styles: .toast); this opens the rest of it.
  const [expanded, setExpanded] = useState(false);
  const full = toast.detail ? `${toast.title} — ${toast.detail}` : toast.title;
  return (
    <div className={`toast toast--${toast.tone}${expanded ? ' toast--expanded' : ''}`}>
      <div className="toast__content">
        <p className="toast__title" title={full}>
          {toast.title}
        </p>
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
        className="toast__expand"
        aria-expanded={expanded}
        aria-label={expanded ? `Show less of: ${toast.title}` : `Show all of: ${toast.title}`}
        onClick={() => setExpanded(!expanded)}
      >
        {expanded ? '▴' : '▾'}
      </button>
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
