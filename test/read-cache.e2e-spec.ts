import { jest } from '@jest/globals';
import pg from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Product } from '../src/catalog/product.entity.js';
import { FileVariants, ReadCache } from '@file-fields/nest';
import { createIntegration, basic } from './support/admin-api.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { expectProblem, PNG } from './support/fixtures.js';
import { eventually } from './support/wait.js';
import { startReceiver } from './support/webhook-receiver.js';

describe('Example catalog: answers kept while the data stays the same (ReadCache)', () => {
  let t: TestApp;
  const api = () => t.http;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL: '50ms' });
  });
  afterAll(async () => t.close({ destroy: true }));

  /** A product with a cover and two gallery files, their variants made. */
  const productWithFiles = async (name: string): Promise<number> => {
    const { id } = (await api().post('/products').send({ name }).expect(201)).body;
    await api().post(`/files/product/${id}/cover`).attach('file', PNG, 'cover.png').expect(201);
    for (const file of ['a.png', 'b.png']) {
      await api().post(`/files/product/${id}/gallery`).attach('file', PNG, file).expect(201);
    }
    await t.app.get(FileVariants).settled();
    return id as number;
  };

  /** A GET, and the statements on products and file records the service ran for it. */
  const read = async (path: string, agent = api()) => {
    const spy = jest.spyOn(t.dataSource.logger, 'logQuery');
    try {
      const res = await agent.get(path).expect(200);
      const statements = spy.mock.calls.map(([sql]) => String(sql)).filter((sql) => /products|file_records/.test(sql));
      return { res, statements };
    } finally {
      spy.mockRestore();
    }
  };

  it('answers a second read of a product or a page with the same bytes and headers, and no catalog query', async () => {
    const id = await productWithFiles('Kept');
    for (const path of [`/products/${id}`, '/products?limit=10']) {
      const first = await read(path);
      expect(first.statements).not.toEqual([]);
      const second = await read(path);
      expect(second.statements).toEqual([]);
      expect(second.res.text).toBe(first.res.text);
      for (const header of ['content-type', 'content-length', 'cache-control', 'x-content-type-options']) {
        expect(second.res.headers[header]).toBe(first.res.headers[header]);
      }
    }
    const product = (await read(`/products/${id}`)).res.body;
    expect(product).toMatchObject({ name: 'Kept', cover: { original_name: 'cover.png' } });
    expect(product.gallery.map((file: { original_name: string }) => file.original_name)).toEqual(['a.png', 'b.png']);
  });

  it('shows every change made through the service at once, in the product and in its page', async () => {
    const id = await productWithFiles('Before');
    const page = `/products?limit=100`;
    const listed = async () =>
      (await read(page)).res.body.items.find((item: { id: number }) => item.id === id) as Record<string, unknown>;
    const current = async () => {
      const one = (await read(`/products/${id}`)).res.body as Record<string, unknown>;
      expect(await listed()).toEqual(one);
      return one as { name: string; cover: { id: number } | null; gallery: Array<{ id: number }> };
    };
    const before = await current();
    expect((await read(`/products/${id}`)).statements).toEqual([]);

    await api().patch(`/products/${id}`).send({ name: 'After' }).expect(200);
    expect((await current()).name).toBe('After');

    const reversed = before.gallery.map((file) => file.id).reverse();
    await api().put(`/files/product/${id}/gallery/order`).send({ ids: reversed }).expect(200);
    expect((await current()).gallery.map((file) => file.id)).toEqual(reversed);

    await api().delete(`/files/${before.cover!.id}`).expect(204);
    expect((await current()).cover).toBeNull();
    await api().post(`/files/product/${id}/cover`).attach('file', PNG, 'new-cover.png').expect(201);
    await t.app.get(FileVariants).settled();
    expect((await current()).cover).toMatchObject({ original_name: 'new-cover.png' });

    await api().delete(`/products/${id}`).expect(204);
    expectProblem(await api().get(`/products/${id}`), 404, 'not-found');
    expect(await listed()).toBeUndefined();
  });

  it('shows a change committed by another connection to the database at once', async () => {
    const id = await productWithFiles('Here');
    await read(`/products/${id}`);
    expect((await read(`/products/${id}`)).statements).toEqual([]);
    await renameElsewhere(t.dataSource, id, 'Renamed elsewhere');
    const after = await read(`/products/${id}`);
    expect(after.res.body.name).toBe('Renamed elsewhere');
    expect(after.statements).not.toEqual([]);
  });

  it('keeps its answers while the service writes only its own bookkeeping: audit rows, tokens, webhooks', async () => {
    const id = await productWithFiles('Bookkeeping');
    await read(`/products/${id}`);
    const flushes = () => t.app.get(ReadCache).stats().flushes;
    const before = flushes();

    // Audited administration writes, a token that marks its integration used, a webhook endpoint and its ping.
    const integration = await createIntegration(t, ['product:read']);
    const token = await request(t.url)
      .post('/api/oauth/token')
      .set('Authorization', basic(integration.access_key_id, integration.secret_access_key))
      .type('form')
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    const asIntegration = (
      await read(`/products/${id}`, request.agent(t.url).auth(token.body.access_token, { type: 'bearer' }))
    ).statements;
    expect(asIntegration).not.toEqual([]);
    const receiver = await startReceiver();
    try {
      const endpoint = await t.http
        .post('/api/webhooks')
        .send({ url: receiver.url, events: ['*'] })
        .expect(201);
      await t.http.post(`/api/webhooks/${endpoint.body.id}/ping`).expect(202);
      await receiver.waitFor(1);
      await eventually('the attempt to be recorded', async () => {
        const attempts = await t.dataSource.query<unknown[]>('SELECT 1 FROM "webhook_attempts"');
        return attempts.length > 0;
      });
    } finally {
      await receiver.close();
    }

    expect((await read(`/products/${id}`)).statements).toEqual([]);
    expect(flushes()).toBe(before);
    const audited = await t.dataSource.query<unknown[]>('SELECT 1 FROM "audit_events"');
    expect(audited.length).toBeGreaterThan(0);
  });

  it('still checks every caller of a kept answer', async () => {
    const id = await productWithFiles('Guarded');
    await read(`/products/${id}`);
    expect((await read(`/products/${id}`)).statements).toEqual([]);
    expectProblem(await request(t.url).get(`/products/${id}`), 401);
    expectProblem(await request(t.url).get(`/products/${id}`).set('Authorization', 'Bearer not-a-token'), 401);
  });
});

describe('Example catalog with READ_CACHE_BYTES=0', () => {
  it('keeps no answer: every read runs its statement', async () => {
    const t = await startTestApp({ READ_CACHE_BYTES: '0' });
    try {
      const { id } = (await t.http.post('/products').send({ name: 'Uncached' }).expect(201)).body;
      const spy = jest.spyOn(t.dataSource.logger, 'logQuery');
      for (let i = 0; i < 3; i++) await t.http.get(`/products/${id}`).expect(200);
      const reads = spy.mock.calls.filter(([sql]) => /FROM "(\w+"\.")?products"/.test(String(sql)));
      spy.mockRestore();
      expect(reads).toHaveLength(3);
    } finally {
      await t.close({ destroy: true });
    }
  });
});

/** Renames a product through a connection of its own, as another process or instance would. */
async function renameElsewhere(dataSource: DataSource, id: number, name: string): Promise<void> {
  const options = dataSource.options;
  if (options.type === 'postgres') {
    const table = dataSource
      .getMetadata(Product)
      .tablePath.split('.')
      .map((part) => `"${part}"`)
      .join('.');
    const client = new pg.Client({ connectionString: options.url });
    await client.connect();
    try {
      await client.query(`UPDATE ${table} SET "name" = $1 WHERE "id" = $2`, [name, id]);
    } finally {
      await client.end();
    }
  } else {
    const other = new DataSource({ type: 'better-sqlite3', database: String(options.database) });
    await other.initialize();
    try {
      await other.query('UPDATE "products" SET "name" = ? WHERE "id" = ?', [name, id]);
    } finally {
      await other.destroy();
    }
  }
}
