import {
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowData,
  type SortingState,
  type Updater,
} from '@tanstack/react-table';
import { useMemo, type ReactNode } from 'react';

/** One column: its heading, what a row shows in it, and the API `sort` value that orders by it, if any. */
export interface ListColumn<T extends RowData> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** The API's name of this order (`label`, `created_at`…); absent: the column cannot be sorted. */
  sort?: string;
  className?: string;
}

const features = tableFeatures({ rowSortingFeature });
type Features = typeof features;

/** `-name` ⇄ `[{ id: 'name', desc: true }]`: the API's sort value as TanStack Table's sorting state. */
const sortingOf = (sort: string | undefined): SortingState =>
  sort ? [{ id: sort.replace(/^-/, ''), desc: sort.startsWith('-') }] : [];
const sortOf = (sorting: SortingState): string | undefined =>
  sorting[0] ? `${sorting[0].desc ? '-' : ''}${sorting[0].id}` : undefined;

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

/**
 * A page of a list that the server has already searched, sorted and paged (TanStack Table in manual mode: it keeps
 * the columns and the sort state, the markup is ours). A sortable heading is a button; its `aria-sort` says the order
 * shown. Under 768px each row becomes a card, its cells labelled by their headings.
 */
export function DataTable<T extends RowData>({
  label,
  columns,
  rows,
  rowKey,
  sort,
  onSort,
  actions,
  busy = false,
}: {
  /** The table's accessible name. */
  label: string;
  /** Stable between renders (module scope or useMemo): a new array rebuilds the table. */
  columns: ListColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  sort?: string;
  onSort?: (sort: string | undefined) => void;
  /** The last cell of each row (buttons); absent for an account that may only read. */
  actions?: (row: T) => ReactNode;
  /** A new page is on its way; the rows shown are the previous one's. */
  busy?: boolean;
}) {
  const definitions = useMemo(() => columns.map(definitionOf), [columns]);
  const byId = useMemo(() => new Map(columns.map((column) => [idOf(column), column])), [columns]);
  const sorting = sortingOf(sort);
  const table = useTable({
    features,
    columns: definitions,
    data: rows,
    getRowId: (row) => String(rowKey(row)),
    state: { sorting },
    onSortingChange: (updater: Updater<SortingState>) =>
      onSort?.(sortOf(typeof updater === 'function' ? updater(sorting) : updater)),
    manualSorting: true,
    enableMultiSort: false,
    enableSortingRemoval: true,
    sortDescFirst: false,
  });
  return (
    <table className="table system-table data-table" aria-label={label} aria-busy={busy}>
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => {
              const { column } = header;
              const direction = column.getIsSorted();
              const canSort = !!onSort && column.getCanSort();
              return (
                <th
                  key={header.id}
                  scope="col"
                  aria-sort={canSort ? (direction ? ARIA_SORT[direction] : 'none') : undefined}
                >
                  {canSort ? (
                    <button type="button" className="sort-button" onClick={column.getToggleSortingHandler()}>
                      <table.FlexRender header={header} />
                      <span className="sort-mark" aria-hidden="true">
                        {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
                      </span>
                    </button>
                  ) : (
                    <table.FlexRender header={header} />
                  )}
                </th>
              );
            })}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((row) => (
          <tr key={row.id}>
            {row.getAllCells().map((cell) => {
              const column = byId.get(cell.column.id);
              return (
                <td key={cell.id} data-label={column?.header} className={column?.className}>
                  <table.FlexRender cell={cell} />
                </td>
              );
            })}
            {actions && <td className="actions">{actions(row.original)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A sortable column is known to the table by its sort value, so that the sort state names the API's order. */
const idOf = (column: ListColumn<never>) => column.sort ?? column.id;

function definitionOf<T extends RowData>(column: ListColumn<T>): ColumnDef<Features, T> {
  return {
    id: idOf(column),
    header: column.header,
    cell: ({ row }) => column.cell(row.original),
    // Only a column with a value can sort; the server orders the rows, so the value is never compared.
    ...(column.sort === undefined ? { enableSorting: false } : { accessorFn: () => column.sort }),
  };
}
