import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { createIntegration, integrationToken } from './support/admin-api.js';
import { GIF, PDF, PNG } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

interface AuditEventBody {
  actor: string;
  client_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  outcome: string;
  details: Record<string, unknown> | null;
}

/** Who acts: a person signed in to the administration UI, or an integration with a client-credentials token. */
interface Actor {
  name: string;
  actor: string;
  clientId: string;
  as: () => TestAgent;
}

/*
 * The audit trail as an activity history of content, as an administrator of Directus or Strapi expects one: every
 * entity created, changed or deleted, every file uploaded, reordered or deleted, with who did it, found by its target.
 */
describe('Audit trail: content', () => {
  let t: TestApp;
  const actors: Actor[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    const users = (await t.http.get('/api/users?q=admin').expect(200)).body.items as Array<{ id: number }>;
    actors.push({ name: 'a person', actor: `user:${users[0].id}`, clientId: 'administration', as: () => t.http });
    const integration = await createIntegration(t, ['product:write', 'article:write']);
    const bearer = `Bearer ${await integrationToken(t.url, integration)}`;
    actors.push({
      name: 'an integration',
      actor: `integration:${integration.id}`,
      clientId: integration.access_key_id,
      as: () => request.agent(t.url).set('Authorization', bearer),
    });
  });
  afterAll(async () => t.close({ destroy: true }));

  /** The events of one action on one target, found the way an administrator filters the trail. */
  const eventsOf = async (action: string, targetType: string, targetId: number | string) => {
    const query = new URLSearchParams({ action, target_type: targetType, target_id: String(targetId) });
    return ((await t.http.get(`/api/audit-events?${query.toString()}`).expect(200)).body as { items: AuditEventBody[] })
      .items;
  };
  const expectOne = async (who: Actor, action: string, targetType: string, targetId: number | string) => {
    const events = await eventsOf(action, targetType, targetId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: who.actor,
      client_id: who.clientId,
      action,
      target_type: targetType,
      target_id: String(targetId),
      outcome: 'success',
    });
    return events[0];
  };

  it.each([0, 1])('records entities created, changed and deleted (actor %#)', async (index) => {
    const who = actors[index];
    for (const [path, type, body] of [
      ['/products', 'product', { name: 'Lamp' }],
      ['/articles', 'article', { title: 'News' }],
    ] as const) {
      const { id } = (await who.as().post(path).send(body).expect(201)).body as { id: number };
      await expectOne(who, `${type}.create`, type, id);
      await who.as().patch(`${path}/${id}`).send(body).expect(200);
      expect((await expectOne(who, `${type}.update`, type, id)).details).toMatchObject({
        fields: Object.keys(body),
      });
      await who.as().delete(`${path}/${id}`).expect(204);
      await expectOne(who, `${type}.delete`, type, id);
    }
  });

  it.each([0, 1])('records files uploaded, replaced, reordered and deleted (actor %#)', async (index) => {
    const who = actors[index];
    const product = ((await who.as().post('/products').send({ name: 'Desk' }).expect(201)).body as { id: number }).id;
    const where = { attachment_type: 'product', attachment_id: product };

    const cover = (await who.as().post(`/files/product/${product}/cover`).attach('file', PNG, 'a.png').expect(201))
      .body as { id: number };
    expect((await expectOne(who, 'file.upload', 'file', cover.id)).details).toEqual({ ...where, field: 'cover' });
    await who.as().post(`/files/product/${product}/cover`).attach('file', GIF, 'b.gif').expect(200);
    await expectOne(who, 'file.replace', 'file', cover.id);

    const gallery = (
      await who
        .as()
        .post(`/files/product/${product}/gallery`)
        .attach('file', PNG, 'one.png')
        .attach('file', PDF, 'two.pdf')
        .expect(201)
    ).body as Array<{ id: number }>;
    for (const file of gallery) await expectOne(who, 'file.upload', 'file', file.id);

    const order = gallery.map((file) => file.id).reverse();
    await who.as().put(`/files/product/${product}/gallery/order`).send({ ids: order }).expect(200);
    expect((await expectOne(who, 'file.reorder', 'product', product)).details).toEqual({ field: 'gallery', order });

    await who.as().delete(`/files/${gallery[0].id}`).expect(204);
    expect((await expectOne(who, 'file.delete', 'file', gallery[0].id)).details).toEqual({
      ...where,
      field: 'gallery',
    });
  });

  it('records a file uploaded over tus like one sent in one request', async () => {
    const who = actors[1];
    const article = ((await who.as().post('/articles').send({ title: 'tus' }).expect(201)).body as { id: number }).id;
    const created = await who
      .as()
      .post(`/files/article/${article}/attachments`)
      .set({ 'Tus-Resumable': '1.0.0', 'Upload-Length': String(PDF.length) })
      .expect(201);
    const done = await who
      .as()
      .patch(new URL(created.headers.location).pathname)
      .set({ 'Tus-Resumable': '1.0.0', 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' })
      .send(PDF)
      .expect(204);
    const fileId = done.headers['file-id'];
    expect(fileId).toMatch(/^\d+$/);
    await expectOne(who, 'file.upload', 'file', fileId);
  });

  it('records nothing for a change that did not happen', async () => {
    const who = actors[0];
    await who.as().patch('/products/999999').send({ name: 'x' }).expect(404);
    await who.as().put('/files/product/999999/gallery/order').send({ ids: [] }).expect(404);
    expect(await eventsOf('product.update', 'product', 999999)).toEqual([]);
    expect(await eventsOf('file.reorder', 'product', 999999)).toEqual([]);
  });
});
