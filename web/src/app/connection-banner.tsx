import { useRef } from 'react';
import { formatUtc } from '../lib/format';
import { useConnectivity, useServices } from '../lib/services';
import { usePublishedHeight } from '../lib/use-published-height';

const clock = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });
const dayAndClock = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
});

/** "13:05:12" today; the day as well when it began on another one. */
function since(date: Date, now = new Date()): string {
  return date.toDateString() === now.toDateString() ? clock.format(date) : dayAndClock.format(date);
}

/**
 * One banner while the server does not answer, on every page and at every width (it sits above
 * the shell, not in the folding menu): since when, in the reader's own time, and that the
 * console keeps trying. It goes by itself at the first answer. Its height is published
 * (--banner-height) so the shell's sticky header stops below it instead of under it.
 */
export function ConnectionBanner() {
  const { unreachableSince } = useConnectivity();
  const { connectivity } = useServices();
  const banner = useRef<HTMLDivElement>(null);
  usePublishedHeight(banner, '--banner-height', unreachableSince !== null);
  if (!unreachableSince) return null;
  return (
    <div className="connection-banner" role="status" ref={banner}>
      <p>
        <strong>Can&apos;t reach the server</strong> since{' '}
        <time dateTime={unreachableSince.toISOString()} title={formatUtc(unreachableSince)}>
          {since(unreachableSince)}
        </time>{' '}
        (your time) — retrying. What is on screen is the last the server sent.
      </p>
      <button type="button" className="btn btn--ghost" onClick={connectivity.retryNow}>
        Retry now
      </button>
    </div>
  );
}
