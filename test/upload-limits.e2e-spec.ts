import request from 'supertest';
import type { Response } from 'supertest';
import { Clock, OrphanSweeper } from '@file-fields/nest';
import { createIntegration, integrationToken } from './support/admin-api.js';
import { expectProblem, PDF, PNG } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const MINUTE = 60_000;
const OCTETS = 'application/offset+octet-stream';
const PARTIAL = 'application/partial-upload';

type Protocol = 'tus' | 'draft';

/** The headers that create an unfinished upload of `length` bytes (null: not said yet) in each protocol. */
function creation(protocol: Protocol, length: number | null): Record<string, string> {
  if (protocol === 'tus') {
    return {
      'Tus-Resumable': '1.0.0',
      ...(length === null ? { 'Upload-Defer-Length': '1' } : { 'Upload-Length': String(length) }),
    };
  }
  return { 'Upload-Complete': '?0', ...(length === null ? {} : { 'Upload-Length': String(length) }) };
}

/** Lets the clock of the instance run ahead (under the access tokens' hour), and back. */
function shiftClock(t: TestApp) {
  const clock = t.app.get(Clock);
  const realNow = clock.now.bind(clock);
  let ahead = 0;
  clock.now = () => new Date(realNow().getTime() + ahead);
  return {
    advance: (ms: number) => void (ahead += ms),
    restore: () => void (clock.now = realNow),
  };
}

describe('Limits on unfinished uploads (tus, the IETF draft)', () => {
  let t: TestApp;
  const raw = () => request(t.url);
  const newArticle = async () =>
    (await t.http.post('/articles').send({ title: 'limits' }).expect(201)).body.id as number;
  /** A principal of its own (an integration with article:write), so that each test counts from zero. */
  const newPrincipal = async () => {
    const integration = await createIntegration(t, ['article:write', 'article:read']);
    return `Bearer ${await integrationToken(t.url, integration)}`;
  };
  const open = (protocol: Protocol, bearer: string, article: number, field: string, length: number | null = 10) =>
    raw().post(`/files/article/${article}/${field}`).set('Authorization', bearer).set(creation(protocol, length));
  const opened = async (
    protocol: Protocol,
    bearer: string,
    article: number,
    field: string,
    length: number | null = 10,
  ) => {
    const res = await open(protocol, bearer, article, field, length);
    expect(res.status).toBe(201);
    return new URL(res.headers.location).pathname;
  };
  const cancel = (protocol: Protocol, bearer: string, location: string) =>
    raw()
      .delete(location)
      .set('Authorization', bearer)
      .set(protocol === 'tus' ? { 'Tus-Resumable': '1.0.0' } : { 'Upload-Draft-Interop-Version': '8' })
      .expect(204);
  const finish = (protocol: Protocol, bearer: string, location: string, body: Buffer) =>
    raw()
      .patch(location)
      .set('Authorization', bearer)
      .set(
        protocol === 'tus'
          ? { 'Tus-Resumable': '1.0.0', 'Content-Type': OCTETS, 'Upload-Offset': '0' }
          : { 'Content-Type': PARTIAL, 'Upload-Offset': '0', 'Upload-Complete': '?1' },
      )
      .send(body);
  const expectTooMany = (res: Response) => {
    expectProblem(res, 429, 'too-many-open-uploads');
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    // The soonest of the principal's uploads expires within RESUMABLE_UPLOAD_EXPIRY (10 minutes here).
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(600);
  };

  beforeAll(async () => {
    // Short enough for the clock to pass them within the access tokens' hour.
    t = await startTestApp({ RESUMABLE_UPLOAD_EXPIRY: '10m', RESUMABLE_UPLOAD_LIFETIME: '25m' });
  });
  afterAll(() => t.close({ destroy: true }));

  describe.each<Protocol>(['tus', 'draft'])('over %s', (protocol) => {
    it('refuses the 25th open upload of one principal with 429 and Retry-After; cancelling or completing frees one', async () => {
      const bearer = await newPrincipal();
      const articles = [await newArticle(), await newArticle(), await newArticle()];
      const locations: string[] = [];
      for (let n = 0; n < 24; n += 1)
        locations.push(await opened(protocol, bearer, articles[Math.floor(n / 10)], 'attachments'));
      expectTooMany(await open(protocol, bearer, articles[2], 'attachments'));
      // Another principal is not held back by this one's uploads.
      await opened(protocol, await newPrincipal(), articles[2], 'attachments');

      await cancel(protocol, bearer, locations.pop()!);
      locations.push(await opened(protocol, bearer, articles[2], 'attachments'));
      expectTooMany(await open(protocol, bearer, articles[2], 'attachments'));

      const done = await finish(protocol, bearer, locations.pop()!, Buffer.from('0123456789'));
      expect(done.status).toBe(protocol === 'tus' ? 204 : 201);
      await opened(protocol, bearer, articles[2], 'attachments');
      expectTooMany(await open(protocol, bearer, articles[2], 'attachments'));
    });

    // How declared bytes count against the principal's limit is open-upload-limits.spec.ts.
    it("counts the uploads under way into a field's room: maxCount − files − open uploads, one for a single field", async () => {
      const bearer = await newPrincipal();
      const other = await newPrincipal();
      const article = await newArticle();
      for (const name of ['a.pdf', 'b.pdf']) {
        await t.http.post(`/files/article/${article}/attachments`).attach('file', PDF, name).expect(201);
      }
      const locations: string[] = [];
      for (let n = 0; n < 8; n += 1)
        locations.push(await opened(protocol, n % 2 ? bearer : other, article, 'attachments'));
      expectProblem(await open(protocol, bearer, article, 'attachments'), 409, 'field-full');
      await cancel(protocol, bearer, locations[1]);
      await opened(protocol, bearer, article, 'attachments');
      expectProblem(await open(protocol, other, article, 'attachments'), 409, 'field-full');

      const thumbnail = await opened(protocol, bearer, article, 'thumbnail', PNG.length);
      expectProblem(await open(protocol, other, article, 'thumbnail', PNG.length), 409, 'field-full');
      const done = await finish(protocol, bearer, thumbnail, PNG);
      expect(done.status).toBe(protocol === 'tus' ? 204 : 201);
      // Completed, it holds the single field's room no more: the next upload replaces the file.
      await opened(protocol, other, article, 'thumbnail', PNG.length);
    });
  });

  it('admits exactly as many as the limits allow when creations race (locked in the creating transaction)', async () => {
    const bearer = await newPrincipal();
    const articles = [await newArticle(), await newArticle(), await newArticle()];
    const byPrincipal = await Promise.all(
      Array.from({ length: 30 }, (_, n) => open(n % 2 ? 'tus' : 'draft', bearer, articles[n % 3], 'attachments')),
    );
    const statuses = byPrincipal.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array<number>(24).fill(201), ...Array<number>(6).fill(429)]);

    const article = await newArticle();
    const others = [await newPrincipal(), await newPrincipal()];
    const byField = await Promise.all(
      Array.from({ length: 16 }, (_, n) => open(n % 2 ? 'tus' : 'draft', others[n % 2], article, 'attachments')),
    );
    expect(byField.map((res) => res.status).sort()).toEqual([
      ...Array<number>(10).fill(201),
      ...Array<number>(6).fill(409),
    ]);
  });

  it('tus: an empty PATCH leaves Upload-Expires; bytes move it, never past the lifetime; then 410 and swept', async () => {
    const bearer = await newPrincipal();
    const article = await newArticle();
    const tus = { Authorization: bearer, 'Tus-Resumable': '1.0.0' };
    const created = await open('tus', bearer, article, 'attachments', 100).expect(201);
    const location = new URL(created.headers.location).pathname;
    const firstExpiry = created.headers['upload-expires'];
    const born = Date.parse(firstExpiry) - 10 * MINUTE;
    const patch = (offset: number, body: Buffer) =>
      raw()
        .patch(location)
        .set(tus)
        .set({ 'Content-Type': OCTETS, 'Upload-Offset': String(offset) })
        .send(body);
    const append = (offset: number, body: Buffer) => patch(offset, body).expect(204);
    const expiresNear = (res: Response, at: number) =>
      expect(Math.abs(Date.parse(res.headers['upload-expires']) - at)).toBeLessThanOrEqual(2000);
    const clock = shiftClock(t);
    try {
      clock.advance(5 * MINUTE);
      expect((await append(0, Buffer.alloc(0))).headers['upload-expires']).toBe(firstExpiry);
      expect((await raw().head(location).set(tus).expect(200)).headers['upload-expires']).toBe(firstExpiry);
      expiresNear(await append(0, Buffer.alloc(10, 1)), born + 15 * MINUTE);
      clock.advance(9 * MINUTE);
      expiresNear(await append(10, Buffer.alloc(10, 2)), born + 24 * MINUTE);
      clock.advance(6 * MINUTE);
      // 20 minutes old: ten more would be 30, past the lifetime of 25.
      expiresNear(await append(20, Buffer.alloc(10, 3)), born + 25 * MINUTE);
      clock.advance(5 * MINUTE + 2000);
      await raw().head(location).set(tus).expect(410);
      expectProblem(await patch(30, Buffer.alloc(10, 4)), 410, 'upload-expired');
      await t.app.get(OrphanSweeper).sweep();
    } finally {
      clock.restore();
    }
    await raw().head(location).set(tus).expect(404);
  });

  it('draft: an empty PATCH does not add to the seconds left (Upload-Limit max-age)', async () => {
    const bearer = await newPrincipal();
    const article = await newArticle();
    const draft = { Authorization: bearer, 'Upload-Draft-Interop-Version': '8' };
    const location = await opened('draft', bearer, article, 'attachments', 100);
    const maxAge = async () => {
      const head = await raw().head(location).set(draft).expect(204);
      return Number(/max-age=(\d+)/.exec(head.headers['upload-limit'])![1]);
    };
    const clock = shiftClock(t);
    try {
      clock.advance(5 * MINUTE);
      await raw()
        .patch(location)
        .set(draft)
        .set({ 'Upload-Offset': '0', 'Upload-Complete': '?0', 'Content-Type': PARTIAL })
        .send(Buffer.alloc(0))
        .expect(204);
      expect(await maxAge()).toBeLessThanOrEqual(5 * 60);
      await raw()
        .patch(location)
        .set(draft)
        .set({ 'Upload-Offset': '0', 'Upload-Complete': '?0', 'Content-Type': PARTIAL })
        .send(Buffer.alloc(10))
        .expect(204);
      expect(await maxAge()).toBeGreaterThan(9 * 60);
    } finally {
      clock.restore();
    }
  });

  // The other names every object has are tus-headers.spec.ts: here, that the refusal comes before any byte is kept.
  it('refuses an Upload-Checksum naming a property every object has (constructor) with 400, keeping nothing', async () => {
    const bearer = await newPrincipal();
    const location = await opened('tus', bearer, await newArticle(), 'attachments', 10);
    const res = await raw()
      .patch(location)
      .set({ Authorization: bearer, 'Tus-Resumable': '1.0.0', 'Content-Type': OCTETS, 'Upload-Offset': '0' })
      .set('Upload-Checksum', 'constructor AAAA')
      .send(Buffer.alloc(10));
    expectProblem(res, 400, 'invalid-upload-header');
    const head = await raw().head(location).set({ Authorization: bearer, 'Tus-Resumable': '1.0.0' }).expect(200);
    expect(head.headers['upload-offset']).toBe('0');
  });

  it('answers a request that names no protocol in the one the upload was created with', async () => {
    const bearer = await newPrincipal();
    const article = await newArticle();
    const draftUpload = await opened('draft', bearer, article, 'attachments', 100);
    const head = await raw().head(draftUpload).set('Authorization', bearer).expect(204);
    expect(head.headers).toMatchObject({ 'upload-offset': '0', 'upload-complete': '?0', 'upload-length': '100' });
    expect(head.headers['tus-resumable']).toBeUndefined();
    // The draft asks for Upload-Complete, where tus would have asked for Tus-Resumable (412).
    const patch = await raw().patch(draftUpload).set({ Authorization: bearer, 'Upload-Offset': '0' }).send();
    expectProblem(patch, 400, 'invalid-upload-header');
    expect(patch.body.detail).toMatch(/Upload-Complete/);
    await raw().delete(draftUpload).set('Authorization', bearer).expect(204);
    await raw().head(draftUpload).set({ Authorization: bearer, 'Upload-Draft-Interop-Version': '8' }).expect(404);

    // A tus upload still asks for its version.
    const tusUpload = await opened('tus', bearer, article, 'attachments', 100);
    expectProblem(await raw().delete(tusUpload).set('Authorization', bearer), 412);
  });
});
