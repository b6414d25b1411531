import { expectProblem } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type Item = Record<string, unknown>;

/** One list of the API: how to add an item named `name`, and what it is called in the list's items. */
interface ListCase {
  path: string;
  /** The property `q` and the name sort look at, as the items show it. */
  nameKey: string;
  /** The `sort` value that orders by it. */
  nameSort: string;
  /** Whether its names may hold capitals and `%` (role names are lower-case words). */
  anyText: boolean;
  create: (t: TestApp, name: string) => Promise<void>;
}

const PASSWORD = 'a-long-enough-password';
const created = async (t: TestApp, path: string, body: object) => void (await t.http.post(path).send(body).expect(201));

const LISTS: ListCase[] = [
  {
    path: '/api/integrations',
    nameKey: 'label',
    nameSort: 'label',
    anyText: true,
    create: (t, label) => created(t, '/api/integrations', { label, role: 'admin' }),
  },
  {
    path: '/api/users',
    nameKey: 'username',
    nameSort: 'username',
    anyText: false,
    create: (t, username) => created(t, '/api/users', { username, password: PASSWORD, role: 'admin' }),
  },
  {
    path: '/api/roles',
    nameKey: 'name',
    nameSort: 'name',
    anyText: false,
    create: (t, name) => created(t, '/api/roles', { name, permissions: ['product:read'] }),
  },
  {
    path: '/api/oauth/clients',
    nameKey: 'name',
    nameSort: 'name',
    anyText: true,
    create: (t, name) =>
      created(t, '/api/oauth/clients', {
        name,
        redirect_uris: ['https://app.example/callback'],
        public: true,
        scopes: ['*'],
      }),
  },
  {
    path: '/products',
    nameKey: 'name',
    nameSort: 'name',
    anyText: true,
    create: (t, name) => created(t, '/products', { name }),
  },
  {
    path: '/articles',
    nameKey: 'title',
    nameSort: 'title',
    anyText: true,
    create: (t, title) => created(t, '/articles', { title }),
  },
];

/** Valid in every list; `zq_bravo` and `zqxbravo` tell a literal `_` from the wildcard. */
const WORDS = ['zq-delta', 'zq-alpha', 'zq-charlie', 'zq_bravo', 'zqxbravo'];
/** Only where names are free text: capitals, and a literal `%`. */
const TEXTS = ['ZQ-Echo', '50% zq'];

/** The names holding `q` in any case, in the order of creation. */
const matching = (names: string[], q: string) => names.filter((name) => name.toLowerCase().includes(q.toLowerCase()));

/** What a person expects of a sort by name: case-insensitive order, ties in the order of creation. */
function expected(names: string[], q: string, descending = false): string[] {
  const found = matching(names, q);
  const order = [...found.keys()].sort((a, b) => {
    const [x, y] = [found[a].toLowerCase(), found[b].toLowerCase()];
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  if (descending) order.reverse();
  return order.map((index) => found[index]);
}

describe.each(LISTS)('GET $path: one page envelope, q, sort', (list) => {
  let t: TestApp;
  const names = list.anyText ? [...WORDS, ...TEXTS] : WORDS;
  const get = async (query: string) => (await t.http.get(`${list.path}?${query}`).expect(200)).body as Item;
  const namesOf = (page: Item) => (page.items as Item[]).map((item) => item[list.nameKey]);

  beforeAll(async () => {
    t = await startTestApp();
    for (const name of names) await list.create(t, name);
  });
  afterAll(async () => t.close({ destroy: true }));

  it('answers { items, total, limit, offset }, pages by limit and offset, in the order of creation by default', async () => {
    const all = await get('q=zq&limit=100');
    expect(all).toEqual({ items: expect.any(Array), total: names.length, limit: 100, offset: 0 });
    expect(namesOf(all)).toEqual(names);
    const second = await get('q=zq&limit=2&offset=2');
    expect({ ...second, items: namesOf(second) }).toEqual({
      items: names.slice(2, 4),
      total: names.length,
      limit: 2,
      offset: 2,
    });
    expect(await get('q=zq&limit=2&offset=100')).toEqual({ items: [], total: names.length, limit: 2, offset: 100 });
    expect(await get('')).toMatchObject({ limit: 20, offset: 0 });
  });

  it('searches a case-insensitive substring, with % and _ taken literally', async () => {
    for (const q of ['ZQ-', 'alpha', 'q_b', 'zq-e'])
      expect(namesOf(await get(`q=${encodeURIComponent(q)}`))).toEqual(matching(names, q));
    expect(namesOf(await get('q=q_b'))).toEqual(['zq_bravo']);
    if (list.anyText) expect(namesOf(await get(`q=${encodeURIComponent('%')}`))).toEqual(['50% zq']);
    expect(await get('q=nothing-like-it')).toEqual({ items: [], total: 0, limit: 20, offset: 0 });
    expect((await get(`q=${'z'.repeat(200)}`)).total).toBe(0);
  });

  it('sorts by name either way in any case, and by creation time, ties in a stable order', async () => {
    expect(namesOf(await get(`q=zq&sort=${list.nameSort}`))).toEqual(expected(names, 'zq'));
    expect(namesOf(await get(`q=zq&sort=-${list.nameSort}`))).toEqual(expected(names, 'zq', true));
    expect(namesOf(await get('q=zq&sort=-created_at'))).toEqual([...names].reverse());
    const pages = [
      await get(`q=zq&sort=${list.nameSort}&limit=3`),
      await get(`q=zq&sort=${list.nameSort}&limit=3&offset=3`),
    ];
    expect(pages.flatMap(namesOf)).toEqual(expected(names, 'zq').slice(0, 6));
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['offset=-1', 'offset'],
    [`q=${'z'.repeat(201)}`, 'q'],
    ['q=a&q=b', 'q'],
    ['sort=nope', 'sort'],
    ['sort=password_hash', 'sort'],
    ['sort=--created_at', 'sort'],
    ['search=zq', 'search'],
  ])('refuses %s with a 400 naming the parameter', async (query, field) => {
    const problem = expectProblem(await t.http.get(`${list.path}?${query}`), 400, 'validation-failed');
    expect(problem.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });
});
