import { act, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { ShowLocation } from '../../testing/location';
import { json, problem, renderPage } from '../../testing/render';
import type { ListColumn } from './data-table';
import { ListView, type Page } from './list-view';
import { SEARCH_DELAY_MS } from './search-box';
import { listQuery, useListParams } from './use-list-params';

interface Fruit {
  id: number;
  name: string;
}

const FRUITS: Fruit[] = ['Banana', 'apple', 'Cherry', 'date', 'Elderberry'].map((name, index) => ({
  id: index + 1,
  name,
}));
const COLUMNS: ListColumn<Fruit>[] = [
  { id: 'name', header: 'Name', sort: 'name', cell: (fruit) => fruit.name },
  { id: 'id', header: 'ID', cell: (fruit) => fruit.id },
];

/** A list page as the administration pages build one, over GET /fruits. */
function FruitList() {
  const [params, setParams] = useListParams();
  const fruits = useQuery({
    queryKey: ['fruits', params],
    queryFn: async () => {
      const query = new URLSearchParams(Object.entries(listQuery(params, 2)).map(([key, value]) => [key, `${value}`]));
      const response = await fetch(new Request(`http://admin.test/fruits?${query}`));
      if (!response.ok) throw new Error(((await response.json()) as { detail: string }).detail);
      return (await response.json()) as Page<Fruit>;
    },
    placeholderData: keepPreviousData,
  });
  return (
    <ListView
      label="Fruits"
      search="Search fruits"
      query={fruits}
      params={params}
      onParams={setParams}
      columns={COLUMNS}
      rowKey={(fruit) => fruit.id}
      empty={{ title: 'No fruit yet' }}
    />
  );
}

/** The service's side: searched, sorted (in any case) and paged as the API does. */
function answer(request: Request) {
  const query = new URL(request.url).searchParams;
  const [limit, offset, q, sort] = [
    Number(query.get('limit')),
    Number(query.get('offset')),
    query.get('q'),
    query.get('sort'),
  ];
  if (sort && !['name', '-name'].includes(sort)) return problem(400, 'Bad Request', 'sort must be name or -name');
  const found = FRUITS.filter((fruit) => !q || fruit.name.toLowerCase().includes(q.toLowerCase()));
  if (sort) found.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) * (sort === 'name' ? 1 : -1));
  return json({ items: found.slice(offset, offset + limit), total: found.length, limit, offset });
}

function renderList(path = '/fruits') {
  const view = renderPage(
    <>
      <FruitList />
      <ShowLocation />
    </>,
    { path, routes: { 'GET /fruits': answer } },
  );
  const requests = () => view.calls.filter((call) => call.path.startsWith('/fruits')).map((call) => call.path);
  return { ...view, requests };
}

const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0].textContent);
const location = () => screen.getByTestId('location').textContent;

afterEach(() => {
  vi.useRealTimers();
});

describe('ListView', () => {
  it('shows a page, and pages on the server with the page in the address', async () => {
    const actor = userEvent.setup({ delay: null });
    const { requests } = renderList();
    await waitFor(() => expect(names()).toEqual(['Banana', 'apple']));
    expect(screen.getByRole('table', { name: 'Fruits' })).toBeTruthy();
    expect(screen.getByText('1–2 of 5')).toBeTruthy();
    await actor.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(names()).toEqual(['Cherry', 'date']));
    expect(location()).toBe('/fruits?offset=2');
    expect(requests().at(-1)).toBe('/fruits?limit=2&offset=2');
  });

  it('sorts by a heading button that says its order, from the first page, either way then back', async () => {
    const actor = userEvent.setup({ delay: null });
    renderList('/fruits?offset=2');
    await waitFor(() => expect(names()).toEqual(['Cherry', 'date']));
    const heading = () => screen.getByRole('columnheader', { name: /Name/ });
    expect(heading().getAttribute('aria-sort')).toBe('none');
    expect(screen.getByRole('columnheader', { name: 'ID' }).getAttribute('aria-sort')).toBeNull();
    await actor.click(within(heading()).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(names()).toEqual(['apple', 'Banana']));
    expect([heading().getAttribute('aria-sort'), location()]).toEqual(['ascending', '/fruits?sort=name']);
    await actor.click(within(heading()).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(names()).toEqual(['Elderberry', 'date']));
    expect([heading().getAttribute('aria-sort'), location()]).toEqual(['descending', '/fruits?sort=-name']);
    await actor.click(within(heading()).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(location()).toBe('/fruits'));
    expect(heading().getAttribute('aria-sort')).toBe('none');
  });

  it('searches once typing pauses, keeping the order, and says when nothing matches', async () => {
    // The pause is played on a fake clock instead of waited out.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const actor = userEvent.setup({ delay: null });
    const { requests } = renderList('/fruits?sort=-name&offset=2');
    const box = await screen.findByRole('searchbox', { name: 'Search fruits' });
    await actor.type(box, 'an');
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS));
    // One request for what was typed, not one per keystroke.
    await waitFor(() => expect(names()).toEqual(['Banana']));
    expect(requests().filter((path) => path.includes('q='))).toEqual(['/fruits?limit=2&offset=0&q=an&sort=-name']);
    expect(location()).toBe('/fruits?sort=-name&q=an');
    await actor.clear(box);
    await actor.type(box, 'kiwi{Enter}');
    expect(await screen.findByText('Nothing matches “kiwi”')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the search in the address in its field, and asks nothing more', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { requests } = renderList('/fruits?q=rr');
    await waitFor(() => expect(names()).toEqual(['Cherry', 'Elderberry']));
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search fruits' }).value).toBe('rr');
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS + 50));
    expect(location()).toBe('/fruits?q=rr');
    expect(requests()).toEqual(['/fruits?limit=2&offset=0&q=rr']);
  });

  it("shows the service's refusal of an order it does not know", async () => {
    renderList('/fruits?sort=colour');
    expect((await screen.findByRole('alert')).textContent).toMatch(/sort must be name/);
  });

  it('offers the first page when the address points past the end', async () => {
    const actor = userEvent.setup({ delay: null });
    renderList('/fruits?offset=40');
    await actor.click(await screen.findByRole('button', { name: 'Go to the first page' }));
    await waitFor(() => expect(names()).toEqual(['Banana', 'apple']));
    expect(location()).toBe('/fruits');
  });
});
