import { useSearchParams } from 'react-router';

/** Where a list is: its search, its order (an API `sort` value, `-` for descending) and the first item shown. */
export interface ListParams {
  q: string;
  sort?: string;
  offset: number;
}

/** The offset in an address: a whole number from 0, whatever was typed there. */
const offsetFrom = (value: string | null) => Math.max(0, Math.trunc(Number(value)) || 0);

/**
 * A list's search, order and page in the page's address (`?q=lamp&sort=-created_at&offset=20`), like the audit log's
 * filters: a view can be shared, and Back goes to the previous one. Other parameters of the address are kept. A new
 * search or order starts at the first page; typing replaces the history entry instead of adding one per keystroke.
 */
export function useListParams(): [ListParams, (next: Partial<ListParams>) => void] {
  const [search, setSearch] = useSearchParams();
  const params: ListParams = {
    q: search.get('q') ?? '',
    sort: search.get('sort') || undefined,
    offset: offsetFrom(search.get('offset')),
  };
  /** Changes what `next` names (`sort: undefined`: the default order); any change but the page's goes to page 1. */
  const update = (next: Partial<ListParams>) => {
    setSearch(
      (current) => {
        const merged = new URLSearchParams(current);
        const values = { ...params, ...next, offset: next.offset ?? 0 };
        set(merged, 'q', values.q.trim() ? values.q : undefined);
        set(merged, 'sort', values.sort);
        set(merged, 'offset', values.offset > 0 ? String(values.offset) : undefined);
        return merged;
      },
      { replace: 'q' in next },
    );
  };
  return [params, update];
}

function set(search: URLSearchParams, name: string, value: string | undefined) {
  if (value === undefined) search.delete(name);
  else search.set(name, value);
}

/**
 * The API query of a list: the search only when there is one. The sort comes from the address as typed: the service
 * refuses one the list does not know (400), and the page says so. Name the list's sort enum as `Sort` to have the
 * compiler check it (e.g. `listQuery<Schemas['RoleSort']>`); without it, the sort is not checked.
 */
export function listQuery<Sort extends string = never>(
  params: ListParams,
  limit: number,
): { limit: number; offset: number; q?: string; sort?: NoInfer<Sort> } {
  const q = params.q.trim();
  return { limit, offset: params.offset, ...(q ? { q } : {}), ...(params.sort ? { sort: params.sort as Sort } : {}) };
}
