import type { ReactNode } from 'react';

export type Column<Row> = {
  label: string;
  /** Shown to screen readers only (a column of buttons that name themselves). */
  hideLabel?: boolean;
  className?: string;
  cell: (row: Row) => ReactNode;
};

export type DataTableProps<Row> = {
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  rowClassName?: (row: Row) => string | undefined;
  className?: string;
  /** Said instead of the table when there are no rows ("No runs yet."). */
  empty?: ReactNode;
};

/**
 * The site's data table. Wide screens get a table; below 600 px each row becomes a card whose
 * cells carry their column's name (data-label, drawn by site.css), so every value of every row is
 * on screen without scrolling sideways. The explicit roles keep the table's meaning for screen
 * readers (and role queries) after the phone layout changes its display from table to block.
 */
export function DataTable<Row>({ columns, rows, rowKey, rowClassName, className, empty }: DataTableProps<Row>) {
  if (rows.length === 0 && empty !== undefined) return <p>{empty}</p>;
  return (
    <div className="table-scroll">
      <table className={`data-table${className ? ` ${className}` : ''}`} role="table">
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((column) => (
              <th key={column.label} scope="col" role="columnheader">
                {column.hideLabel ? <span className="visually-hidden">{column.label}</span> : column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rows.map((row) => (
            <tr key={rowKey(row)} className={rowClassName?.(row)} role="row">
              {columns.map((column) => (
                <td key={column.label} className={column.className} data-label={column.hideLabel ? undefined : column.label} role="cell">
                  {/* One element beside the label: on phones the cell is a two-column grid (label, value), so a
                      value of several nodes (text, quantity, note) would otherwise spill into the label's column. */}
                  {column.hideLabel ? column.cell(row) : <span className="data-table-value">{column.cell(row)}</span>}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
