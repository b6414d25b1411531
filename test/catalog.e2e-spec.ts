import { jest } from '@jest/globals';
import { FileVariants } from '@file-fields/nest';
import { startTestApp, type TestApp } from './support/test-app.js';
import { expectProblem, PNG } from './support/fixtures.js';

describe('Example catalog: products and articles', () => {
  let t: TestApp;
  const api = () => t.http;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close({ destroy: true }));

  it('creates, reads, updates and deletes a product', async () => {
    const created = await api().post('/products').send({ name: 'Chair', description: 'Oak' }).expect(201);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      name: 'Chair',
      description: 'Oak',
      cover: null,
      gallery: [],
    });
    const id = created.body.id;
    await api().get(`/products/${id}`).expect(200, created.body);
    const patched = await api().patch(`/products/${id}`).send({ description: null }).expect(200);
    expect(patched.body).toMatchObject({ name: 'Chair', description: null });
    await api().delete(`/products/${id}`).expect(204);
    expectProblem(await api().get(`/products/${id}`), 404, 'not-found');
    expectProblem(await api().patch(`/products/${id}`).send({ name: 'x' }), 404, 'not-found');
    expectProblem(await api().delete(`/products/${id}`), 404, 'not-found');
  });

  it("enforces a field's own maxSize below the global limit (product.cover: 5 MiB)", async () => {
    const { id } = (await api().post('/products').send({ name: 'Big cover' }).expect(201)).body;
    const image = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 0)]);
    expectProblem(
      await api()
        .post(`/files/product/${id}/cover`)
        .attach('file', image(5 * 1024 * 1024 + 1), 'big.png'),
      413,
      'file-too-large',
    );
    const ok = await api()
      .post(`/files/product/${id}/cover`)
      .attach('file', image(5 * 1024 * 1024), 'max.png')
      .expect(201);
    expect(ok.body).toMatchObject({ size: 5 * 1024 * 1024, mime_type: 'image/png' });
  });

  it('lists every field that fails validation', async () => {
    const res = await api().post('/products').send({ description: 5, colour: 'red' });
    const body = expectProblem(res, 400, 'validation-failed');
    const fields = (body.errors as Array<{ field: string }>).map((e) => e.field).sort();
    expect(fields).toEqual(['colour', 'description', 'name']);
    expect(body.errors).toContainEqual({ field: 'name', messages: ['name is required'] });
    const article = expectProblem(await api().post('/articles').send({}), 400, 'validation-failed');
    expect(article.errors).toEqual([{ field: 'title', messages: ['title is required'] }]);
  });

  it('refuses to null a required field on update', async () => {
    const { id } = (await api().post('/articles').send({ title: 'T' }).expect(201)).body;
    expectProblem(await api().patch(`/articles/${id}`).send({ title: null }), 400, 'validation-failed');
    expectProblem(await api().patch(`/articles/${id}`).send({ title: '' }), 400, 'validation-failed');
    await api()
      .get(`/articles/${id}`)
      .expect(200)
      .expect((r) => expect(r.body.title).toBe('T'));
  });

  it('shows each product its own files, in their order, read with it and with its page', async () => {
    const product = async (name: string) =>
      (await api().post('/products').send({ name }).expect(201)).body.id as number;
    const [first, second] = [await product('Own files 1'), await product('Own files 2')];
    await api().post(`/files/product/${first}/cover`).attach('file', PNG, 'cover.png').expect(201);
    for (const name of ['a.png', 'b.png', 'c.png']) {
      await api().post(`/files/product/${first}/gallery`).attach('file', PNG, name).expect(201);
    }
    await api().post(`/files/product/${second}/gallery`).attach('file', PNG, 'other.png').expect(201);
    const read = (await api().get(`/products/${first}`).expect(200)).body;
    const reversed = (read.gallery as Array<{ id: number }>).map((file) => file.id).reverse();
    await api().put(`/files/product/${first}/gallery/order`).send({ ids: reversed }).expect(200);
    await t.app.get(FileVariants).settled();

    const names = (files: Array<{ original_name: string }>) => files.map((file) => file.original_name);
    const one = (await api().get(`/products/${first}`).expect(200)).body;
    expect(one.cover.original_name).toBe('cover.png');
    expect(names(one.gallery)).toEqual(['c.png', 'b.png', 'a.png']);
    const page = (await api().get('/products?limit=100').expect(200)).body;
    const listed = (id: number) => page.items.find((item: { id: number }) => item.id === id);
    expect(listed(first)).toEqual(one);
    expect(listed(second)).toMatchObject({ cover: null, gallery: [{ original_name: 'other.png' }] });
  });

  it('answers a malformed JSON body with a 400 problem', async () => {
    const res = await api().post('/products').set('Content-Type', 'application/json').send('{"name": ');
    expectProblem(res, 400);
  });

  it('400 for an id that is not a positive integer', async () => {
    expectProblem(await api().get('/products/abc'), 400, 'invalid-id');
    expectProblem(await api().get('/articles/0'), 400, 'invalid-id');
  });

  describe('listing', () => {
    beforeAll(async () => {
      for (let i = 0; i < 25; i++)
        await api()
          .post('/articles')
          .send({ title: `A${i}` })
          .expect(201);
    });

    it('pages with limit and offset, 20 by default', async () => {
      const first = (await api().get('/articles').expect(200)).body;
      expect(first).toMatchObject({ limit: 20, offset: 0 });
      expect(first.items).toHaveLength(20);
      expect(first.total).toBeGreaterThanOrEqual(25);
      const next = (await api().get('/articles?limit=5&offset=20').expect(200)).body;
      expect(next.items).toHaveLength(5);
      expect(next.items[0].id).toBeGreaterThan(first.items[19].id);
      expect(next.items[0]).toHaveProperty('attachments', []);
    });

    it('counts them all on a page past the end, which is empty', async () => {
      const { total } = (await api().get('/articles?limit=1').expect(200)).body;
      const past = (await api().get(`/articles?offset=${total}`).expect(200)).body;
      expect(past).toEqual({ items: [], total, limit: 20, offset: total });
      const last = (
        await api()
          .get(`/articles?limit=5&offset=${total - 1}`)
          .expect(200)
      ).body;
      expect(last.items).toHaveLength(1);
      expect(last.total).toBe(total);
    });

    it.each(['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'limit=2.5', 'page=2'])('400 for %s', async (query) => {
      expectProblem(await api().get(`/articles?${query}`), 400, 'validation-failed');
    });
  });

  it('reads the files of a list of 50 in one query, as of a list of 5 and a single product', async () => {
    const existing = (await api().get('/products?limit=1').expect(200)).body.total as number;
    const ids: number[] = [];
    for (let i = 0; i < 50; i++)
      ids.push(
        (
          await api()
            .post('/products')
            .send({ name: `P${i}` })
            .expect(201)
        ).body.id,
      );
    for (const id of ids) {
      await api().post(`/files/product/${id}/gallery`).attach('file', PNG, 'g.png').expect(201);
    }
    // The gallery thumbs are made in the background, with queries of their own: counted are the request's alone.
    await t.app.get(FileVariants).settled();
    const spy = jest.spyOn(t.dataSource.logger, 'logQuery');
    const queriesFor = async (limit: number) => {
      spy.mockClear();
      const res = await api().get(`/products?limit=${limit}&offset=${existing}`).expect(200);
      expect(res.body.items).toHaveLength(limit);
      expect(res.body.items.every((p: { gallery: unknown[] }) => p.gallery.length === 1)).toBe(true);
      const queries = spy.mock.calls.map(([sql]) => String(sql));
      // Only the request's own queries count: the webhook dispatcher and the token checks query on their own.
      const own = queries.filter((sql) => /"?(products|file_records)"?/.test(sql) && !sql.includes('webhook'));
      return { all: own.length, files: own.filter((sql) => sql.includes('file_records')).length };
    };
    const five = await queriesFor(5);
    const fifty = await queriesFor(50);
    spy.mockClear();
    const one = (await api().get(`/products/${ids[0]}`).expect(200)).body;
    const oneQueries = spy.mock.calls
      .map(([sql]) => String(sql))
      .filter((sql) => /"?(products|file_records)"?/.test(sql));
    spy.mockRestore();
    expect(one.gallery).toHaveLength(1);
    // The page, the number of all products, and the files of all of them in one query; a product, and its files.
    expect(five).toEqual({ all: 3, files: 1 });
    expect(fifty).toEqual({ all: 3, files: 1 });
    expect(oneQueries).toHaveLength(2);
    expect(oneQueries[1]).toMatch(/file_records/);
  });
});
