import type { ReactNode } from 'react';

export interface Column<T> {
  /** Stable id of the column (React key). */
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Right-align numbers so digits line up. */
  numeric?: boolean;
  /**
   * What a stacked row (phones) labels the cell with; the header when it is plain text. A cell
   * without one (a column of row actions) spans the card's width.
   */
  label?: string;
}

export interface TableProps<T> {
  /** Names the table for screen readers; shown visually unless captionHidden. */
  caption: string;
  captionHidden?: boolean;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Shown in place of the body when rows is empty (use <EmptyState>). */
  empty?: ReactNode;
}

/**
 * A plain data table with a caption, header cells with scope, and an empty state. On phones each
 * row becomes a card of label: value lines (ui-display.css), so no column is pushed off-screen.
 */
export function Table<T>({ caption, captionHidden, columns, rows, rowKey, empty }: TableProps<T>) {
  if (rows.length === 0 && empty) return <>{empty}</>;
  return (
    <div className="table-wrap">
      <table className="table table--stack">
        <caption className={captionHidden ? 'visually-hidden' : 'table__caption'}>
          {caption}
        </caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.id} scope="col" className={column.numeric ? 'num' : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td
                  key={column.id}
                  className={column.numeric ? 'num' : undefined}
                  data-label={
                    column.label ?? (typeof column.header === 'string' ? column.header : undefined)
                  }
                >
                  <div className="table__value">{column.cell(row)}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
