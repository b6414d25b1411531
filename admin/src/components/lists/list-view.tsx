import type { UseQueryResult } from '@tanstack/react-query';
import type { RowData } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import { Pager } from '../pager';
import { EmptyState, ErrorMessage, Progress } from '../ui';
import { DataTable, type ListColumn } from './data-table';
import { SearchBox } from './search-box';
import type { ListParams } from './use-list-params';

/** What every list of the API answers. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/**
 * A list as the administration pages show it: a search field (when the list can be searched), the page of rows in a
 * {@link DataTable}, and the pager; while loading, on error, when empty, when nothing matches and past the end, a
 * line that says so.
 */
export function ListView<T extends RowData>({
  label,
  search,
  query,
  params,
  onParams,
  columns,
  rowKey,
  actions,
  empty,
}: {
  /** The table's accessible name, e.g. "Integrations". */
  label: string;
  /** The search field's label, e.g. "Search integrations"; absent: no search. */
  search?: string;
  query: UseQueryResult<Page<T>>;
  params: ListParams;
  onParams: (next: Partial<ListParams>) => void;
  columns: ListColumn<T>[];
  rowKey: (row: T) => string | number;
  actions?: (row: T) => ReactNode;
  /** What to show when the list is empty and unsearched: its title and what to do. */
  empty: { title: string; hint?: ReactNode };
}) {
  const page = query.data;
  const searched = params.q.trim() !== '';
  return (
    <>
      {search && <SearchBox label={search} value={params.q} onSearch={(q) => onParams({ q })} />}
      {query.isPending && <Progress label={`Loading ${label.toLowerCase()}…`} />}
      <ErrorMessage error={query.error} />
      {page?.total === 0 &&
        (searched ? (
          <EmptyState title={`Nothing matches “${params.q.trim()}”`}>Try other words, or clear the search.</EmptyState>
        ) : (
          <EmptyState title={empty.title}>{empty.hint}</EmptyState>
        ))}
      {page && page.items.length > 0 && (
        <>
          <DataTable
            label={label}
            columns={columns}
            rows={page.items}
            rowKey={rowKey}
            sort={params.sort}
            onSort={(sort) => onParams({ sort })}
            actions={actions}
            busy={query.isPlaceholderData}
          />
          <Pager
            offset={page.offset}
            limit={page.limit}
            total={page.total}
            onOffset={(offset) => onParams({ offset })}
          />
        </>
      )}
      {page && page.items.length === 0 && page.total > 0 && (
        <EmptyState title="Nothing on this page">
          <button type="button" className="link" onClick={() => onParams({})}>
            Go to the first page
          </button>
        </EmptyState>
      )}
    </>
  );
}
