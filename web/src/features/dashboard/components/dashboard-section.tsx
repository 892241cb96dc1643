import { useId, type ReactNode } from 'react';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';

export interface DashboardSectionProps {
  title: string;
  /** How many things need attention; shown next to the title once known. */
  count: number;
  /** The badge colour when count > 0. */
  tone?: BadgeTone;
  /**
   * The badge colour of a zero: green only when the checks behind it ran (a zero of corrupt
   * backups while few were verified is no good news). Default success.
   */
  zeroTone?: BadgeTone;
  isPending: boolean;
  error: unknown;
  onRetry?: () => void;
  /** Shown when count is 0: what was checked and found fine. */
  emptyTitle: string;
  emptyText?: ReactNode;
  /** A link to the full list. */
  more?: ReactNode;
  /** Spans the whole grid row (tables with long error messages). */
  wide?: boolean;
  children: ReactNode;
}

/** One "needs attention" section: a heading with a count, and loading, error or empty states. */
export function DashboardSection({
  title,
  count,
  tone = 'danger',
  zeroTone = 'success',
  isPending,
  error,
  onRetry,
  emptyTitle,
  emptyText,
  more,
  wide = false,
  children,
}: DashboardSectionProps) {
  const headingId = useId();
  const known = !isPending && !error;
  return (
    <section
      className={wide ? 'panel dash-section dash-section--wide' : 'panel dash-section'}
      aria-labelledby={headingId}
    >
      <h2 id={headingId} className="panel__title">
        {title}
        {known && <Badge tone={count > 0 ? tone : zeroTone}>{count}</Badge>}
      </h2>
      {error ? (
        <ErrorBanner
          title={`Could not load: ${title.toLowerCase()}`}
          error={error}
          onRetry={onRetry}
        />
      ) : isPending ? (
        <Spinner label={`Loading ${title.toLowerCase()}…`} />
      ) : count === 0 ? (
        <EmptyState title={emptyTitle}>{emptyText}</EmptyState>
      ) : (
        children
      )}
      {more && <p className="dash-section__more">{more}</p>}
    </section>
  );
}
