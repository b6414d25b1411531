import { jest } from '@jest/globals';
import sharp from 'sharp';
import request from 'supertest';
import { Clock, FileVariants } from '@file-fields/nest';
import { expectProblem, GIF, PDF, PNG } from './support/fixtures.js';
import { startS3Server, type S3TestServer } from './support/s3-server.js';
import {
  ADMIN_PASSWORD,
  createTestDatabase,
  passwordToken,
  startApp,
  startTestApp,
  type TestApp,
} from './support/test-app.js';

interface FileBody {
  id: number;
  path: string;
  url: string;
  checksum_sha256: string;
}

/** A GET as a browser's `<img src>` makes it: no Authorization, no cookie, nothing but the URL. */
async function plainGet(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** A 403 problem document of this type. */
function expectRefused(res: Awaited<ReturnType<typeof plainGet>>, code: string): void {
  expect(res.status).toBe(403);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ type: `/problems/${code}`, status: 403 });
}

const expiresOf = (url: string) => Number(new URL(url).searchParams.get('expires'));

describe('Signed file URLs (proxy mode)', () => {
  let t: TestApp;
  let clock: Clock;
  const api = () => t.http;

  const createProduct = async () =>
    (await api().post('/products').send({ name: 'Lamp' }).expect(201)).body.id as number;
  const upload = async (path: string, bytes: Buffer, name: string, status = 201) =>
    (await api().post(path).attach('file', bytes, name).expect(status)).body as FileBody;
  const coverOf = async (product: number, agent = api()) =>
    (await agent.get(`/products/${product}`).expect(200)).body.cover as FileBody;
  /** Freezes the service's clock at `ms`; an administrator's token issued at that time. */
  const freezeAt = async (ms: number) => {
    jest.spyOn(clock, 'now').mockImplementation(() => new Date(ms));
    const { access_token } = await passwordToken(t.url, 'admin', ADMIN_PASSWORD);
    return request.agent(t.url).set('Authorization', `Bearer ${access_token}`);
  };

  beforeAll(async () => {
    t = await startTestApp({ FILE_URL_TTL: '1h' });
    clock = t.app.get(Clock);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => t.close({ destroy: true }));

  it("serves a product's cover.url to a plain fetch without any header, with the content route's headers", async () => {
    const product = await createProduct();
    const uploaded = await upload(`/files/product/${product}/cover`, PNG, 'cover.png');
    const cover = await coverOf(product);
    expect(cover.url).toBe(uploaded.url);
    expect(cover.url).toMatch(new RegExp(`^${t.url}/files/${cover.id}/signed\\?expires=\\d+&signature=[\\w-]{43}$`));

    const res = await plainGet(cover.url);
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body, PNG)).toBe(0);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(PNG.length),
      etag: `"${cover.checksum_sha256}"`,
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="?cover\.png"?/);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get('cache-control') ?? '')?.[1]);
    const left = expiresOf(cover.url) - Date.now() / 1000;
    expect(maxAge).toBeGreaterThanOrEqual(3600 - 5);
    expect(maxAge).toBeLessThanOrEqual(7200);
    expect(Math.abs(maxAge - left)).toBeLessThan(5);

    const notModified = await plainGet(cover.url, { 'If-None-Match': `"${cover.checksum_sha256}"` });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const partial = await plainGet(cover.url, { Range: 'bytes=1-3' });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe(`bytes 1-3/${PNG.length}`);
    expect(Buffer.compare(partial.body, PNG.subarray(1, 4))).toBe(0);
    const outside = await plainGet(cover.url, { Range: `bytes=${PNG.length + 10}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${PNG.length}`);
  });

  it('puts a working url on every file record of every response', async () => {
    const product = await createProduct();
    const created = await upload(`/files/product/${product}/gallery`, PNG, 'a.png');
    const several = (
      await api()
        .post(`/files/product/${product}/gallery`)
        .attach('file', PDF, 'b.pdf')
        .attach('file', GIF, 'c.gif')
        .expect(201)
    ).body as FileBody[];
    const single = (await api().get(`/files/${created.id}`).expect(200)).body as FileBody;
    const reordered = (
      await api()
        .put(`/files/product/${product}/gallery/order`)
        .send({ ids: [several[1].id, several[0].id, created.id] })
        .expect(200)
    ).body as FileBody[];
    const page = (await api().get('/products?limit=100').expect(200)).body as { items: Array<{ gallery: FileBody[] }> };
    const listed = page.items.flatMap((item) => item.gallery);
    const records = [created, ...several, single, ...reordered, ...listed];
    for (const record of records) expect(record.url).toMatch(new RegExp(`^${t.url}/files/${record.id}/signed\\?`));
    // One URL per file, whichever response carried it.
    expect(new Set(records.filter((r) => r.id === created.id).map((r) => r.url)).size).toBe(1);
    const bytes = new Map([
      [created.id, PNG],
      [several[0].id, PDF],
      [several[1].id, GIF],
    ]);
    for (const record of reordered) {
      const res = await plainGet(record.url);
      expect(res.status).toBe(200);
      expect(Buffer.compare(res.body, bytes.get(record.id)!)).toBe(0);
    }
  });

  it('gives the same URL for a whole window, a new one in the next, each valid until its own expiry', async () => {
    const product = await createProduct();
    await upload(`/files/product/${product}/cover`, PNG, 'cover.png');
    const now = Date.now();
    const agent = await freezeAt(now);
    const first = (await coverOf(product, agent)).url;
    expect((await coverOf(product, agent)).url).toBe(first);
    expect(expiresOf(first) - now / 1000).toBeGreaterThanOrEqual(3600);
    expect(expiresOf(first) - now / 1000).toBeLessThanOrEqual(7200);

    const hourLater = await freezeAt(now + 3_600_000);
    const next = (await coverOf(product, hourLater)).url;
    expect(next).not.toBe(first);
    expect(expiresOf(next)).toBe(expiresOf(first) + 3600);
    for (const url of [first, next]) expect((await plainGet(url)).status).toBe(200);
  });

  it('refuses an altered URL with 403, and takes no bearer token in its place', async () => {
    const product = await createProduct();
    const cover = await upload(`/files/product/${product}/cover`, PNG, 'cover.png');
    const other = await upload(`/files/product/${await createProduct()}/cover`, GIF, 'other.gif');
    const url = new URL(cover.url);
    const signature = url.searchParams.get('signature')!;
    const variants = [
      (u: URL) => u.searchParams.set('signature', `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`),
      (u: URL) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600)),
      (u: URL) => (u.pathname = `/files/${other.id}/signed`),
      (u: URL) => u.searchParams.set('variant', 'thumb'),
      (u: URL) => u.searchParams.delete('signature'),
      (u: URL) => u.searchParams.delete('expires'),
    ];
    for (const alter of variants) {
      const altered = new URL(url);
      alter(altered);
      expectRefused(await plainGet(altered.toString()), 'file-url-invalid');
    }
    const { access_token } = await passwordToken(t.url, 'admin', ADMIN_PASSWORD);
    const bare = `/files/${cover.id}/signed`;
    expectRefused(await plainGet(`${t.url}${bare}?access_token=${access_token}`), 'file-url-invalid');
    expectProblem(await api().get(bare), 403, 'file-url-invalid');
    // The token-protected routes stay as they are.
    expectProblem(await request(t.url).get(`/files/${cover.id}/content`), 401);
  });

  it('refuses an expired URL with 403', async () => {
    const product = await createProduct();
    const cover = await upload(`/files/product/${product}/cover`, PNG, 'cover.png');
    const expires = expiresOf(cover.url) * 1000;
    jest.spyOn(clock, 'now').mockImplementation(() => new Date(expires - 1000));
    expect((await plainGet(cover.url)).status).toBe(200);
    jest.spyOn(clock, 'now').mockImplementation(() => new Date(expires));
    expectRefused(await plainGet(cover.url), 'file-url-expired');
  });

  it('gives a replaced cover a new URL; the old one serves neither the new bytes nor the old', async () => {
    const product = await createProduct();
    const before = await upload(`/files/product/${product}/cover`, PNG, 'cover.png');
    const after = await upload(`/files/product/${product}/cover`, GIF, 'cover.gif', 200);
    expect(after.id).toBe(before.id);
    expect(after.url).not.toBe(before.url);
    expect((await coverOf(product)).url).toBe(after.url);
    const fresh = await plainGet(after.url);
    expect(fresh.status).toBe(200);
    expect(Buffer.compare(fresh.body, GIF)).toBe(0);
    expectRefused(await plainGet(before.url), 'file-url-invalid');
  });

  it("serves a variant's url (the cover's thumbnail) the same way, at the declared size", async () => {
    const product = await createProduct();
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    await upload(`/files/product/${product}/cover`, photo, 'photo.png');
    await t.app.get(FileVariants).settled();
    const cover = (await api().get(`/products/${product}`).expect(200)).body.cover as {
      variants: Record<string, { url: string; width: number; height: number } | null>;
    };
    const thumb = cover.variants.thumb!;
    expect(new URL(thumb.url).searchParams.get('variant')).toBe('thumb');
    const served = await plainGet(thumb.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(await sharp(served.body).metadata()).toMatchObject({ width: thumb.width, height: thumb.height });
    expect([thumb.width, thumb.height]).toEqual([200, 200]);
    const tampered = new URL(thumb.url);
    tampered.searchParams.set('variant', 'large');
    expectRefused(await plainGet(tampered.toString()), 'file-url-invalid');
  });

  it("refuses a deleted file's URL like any other invalid one", async () => {
    const product = await createProduct();
    const cover = await upload(`/files/product/${product}/cover`, PNG, 'cover.png');
    await api().delete(`/files/${cover.id}`).expect(204);
    expectRefused(await plainGet(cover.url), 'file-url-invalid');
  });
});

describe('Signed file URLs on several instances', () => {
  it('are signed with a key derived from SECRETS_KEY: another instance, or the same after a restart, serves them', async () => {
    const database = await createTestDatabase();
    const first = await startApp(database);
    // Both instances at the same moment: the same window, so the same URL.
    const at = Date.now();
    jest.spyOn(first.app.get(Clock), 'now').mockImplementation(() => new Date(at));
    const product = (await first.http.post('/products').send({ name: 'Lamp' }).expect(201)).body.id as number;
    const cover = (await first.http.post(`/files/product/${product}/cover`).attach('file', PNG, 'c.png').expect(201))
      .body as FileBody;
    await first.close();
    const second = await startApp(database);
    jest.spyOn(second.app.get(Clock), 'now').mockImplementation(() => new Date(at));
    try {
      const { pathname, search } = new URL(cover.url);
      const res = await plainGet(`${second.url}${pathname}${search}`);
      expect(res.status).toBe(200);
      expect(Buffer.compare(res.body, PNG)).toBe(0);
      expect(new URL((await second.http.get(`/products/${product}`).expect(200)).body.cover.url).search).toBe(search);
    } finally {
      jest.restoreAllMocks();
      await second.close({ destroy: true });
    }
  });
});

describe('Signed file URLs (direct mode on S3)', () => {
  let s3: S3TestServer;
  let t: TestApp;

  beforeAll(async () => {
    s3 = await startS3Server();
    t = await startTestApp({ ...s3.env, FILE_URL_MODE: 'direct' });
  });
  afterAll(async () => {
    await t.close({ destroy: true });
    await s3.stop();
  });

  it('gives a presigned URL of the bucket that the bucket serves, the same for the window, new when replaced', async () => {
    const product = (await t.http.post('/products').send({ name: 'Lamp' }).expect(201)).body.id as number;
    const cover = (await t.http.post(`/files/product/${product}/cover`).attach('file', PNG, 'cover.png').expect(201))
      .body as FileBody;
    const url = new URL(cover.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${s3.env.S3_ENDPOINT}/${s3.env.S3_BUCKET}/${cover.path}`);
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect((await t.http.get(`/products/${product}`).expect(200)).body.cover.url).toBe(cover.url);

    const res = await plainGet(cover.url);
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body, PNG)).toBe(0);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toMatch(/^inline; filename="?cover\.png"?/);
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');

    // s3rver checks a V4 URL's expiry and access key, not its signature (S3Storage's spec checks the URLs it signs).
    const expired = new URL(url);
    expired.searchParams.set('X-Amz-Date', '20200101T000000Z');
    expect((await plainGet(expired.toString())).status).toBe(403);

    const replaced = (await t.http.post(`/files/product/${product}/cover`).attach('file', GIF, 'b.gif').expect(200))
      .body as FileBody;
    expect(replaced.url).not.toBe(cover.url);
    const fresh = await plainGet(replaced.url);
    expect(fresh.status).toBe(200);
    expect(Buffer.compare(fresh.body, GIF)).toBe(0);
    expect(fresh.headers.get('content-type')).toBe('image/gif');
    // The old URL names the old object, which is gone with the replacement.
    expect((await plainGet(cover.url)).status).toBe(404);
  });
});
