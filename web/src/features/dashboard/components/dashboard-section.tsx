import { useId, type ReactNode } from 'react';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';
import { Table, type Column } from '../../../components/ui/table';

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

export type DashboardTableSectionProps<T> = Omit<DashboardSectionProps, 'count' | 'children'> & {
  /** The table's caption, for screen readers (the section's heading shows). */
  caption: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** What needs attention when it is not one a row (rows.length by default). */
  count?: number;
  /** Above the table: a sentence that sums it up. */
  intro?: ReactNode;
  /** Below the table: what it leaves out. */
  children?: ReactNode;
};

/** A section whose content is the table of what needs attention: most of the dashboard's. */
export function DashboardTableSection<T>({
  caption,
  columns,
  rows,
  rowKey,
  count = rows.length,
  intro,
  children,
  ...section
}: DashboardTableSectionProps<T>) {
  return (
    <DashboardSection {...section} count={count}>
      {intro}
      <Table caption={caption} captionHidden columns={columns} rows={rows} rowKey={rowKey} />
      {children}
    </DashboardSection>
  );
}
