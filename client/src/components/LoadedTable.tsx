import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from './DataTable.tsx';
import { Loaded, type LoadedQuery } from './Loaded.tsx';

type TableProps<Row> = Omit<DataTableProps<Row>, 'rows'> & { what: string; loading: string };

/**
 * A list loaded by a query, shown as the site's data table: "Loading ..." first, the query's problem
 * line when it fails or the device is offline (Loaded), then the table, or `empty` when there are no
 * rows. The rows are what the page makes of the data (`rows`: filtered, sorted), else the data itself.
 */
export function LoadedTable<Row>(props: TableProps<Row> & { query: LoadedQuery<unknown>; rows: readonly Row[] }): ReactNode;
export function LoadedTable<Row>(props: TableProps<Row> & { query: LoadedQuery<readonly Row[]>; rows?: undefined }): ReactNode;
export function LoadedTable<Row>({ query, rows, what, loading, ...table }: TableProps<Row> & { query: LoadedQuery<unknown>; rows?: readonly Row[] }): ReactNode {
  return (
    <Loaded query={query} what={what} loading={loading}>
      {(data) => <DataTable {...table} rows={rows ?? (data as readonly Row[])} />}
    </Loaded>
  );
}
