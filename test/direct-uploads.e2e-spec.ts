import { CompleteMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import request from 'supertest';
import { Clock, OrphanSweeper } from '@file-fields/nest';
import { basic, createIntegration } from './support/admin-api.js';
import {
  directUploadContext,
  MiB,
  pdfOf,
  putParts,
  row,
  s3ClientOf,
  sha256,
  start,
  storedKeys,
  type Started,
} from './support/direct-uploads.js';
import { startFauxqsServer } from './support/fauxqs-server.js';
import { expectProblem, PNG } from './support/fixtures.js';
import { startS3Server } from './support/s3-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('Direct-to-S3 uploads (fauxqs: multipart semantics as S3 has them)', () => {
  const c = directUploadContext(() => startFauxqsServer('direct-e2e'));
  const complete = (id: string, parts: unknown, token?: string) => {
    const req = token
      ? request(c.t.url).post(`/files/direct-uploads/${id}/complete`)
      : c.t.http.post(`/files/direct-uploads/${id}/complete`);
    return (token ? req.set('Authorization', token) : req).send({ parts });
  };
  const galleryNames = async () =>
    ((await c.t.http.get(`/products/${c.product}`).expect(200)).body.gallery as Array<{ path: string }>).map(
      (f) => f.path,
    );

  it('takes a file in parts sent straight to the bucket, and records it with its sha256 (no body through the service)', async () => {
    const file = pdfOf(10 * MiB + 12345);
    const before = c.bytesReceived();
    const started = (await start(c.t, 'gallery', c.product, file, 'application/pdf').expect(201)).body as Started;
    expect(started.id).toMatch(/^[A-Za-z0-9_-]{27}$/);
    expect(started.parts.map((p) => [p.part_number, p.size])).toEqual([
      [1, 8 * MiB],
      [2, file.length - 8 * MiB],
    ]);
    expect(started.parts.every((p) => p.url.startsWith(`${c.s3.env.S3_ENDPOINT}/`))).toBe(true);
    expect(started.complete_url).toBe(`${c.t.url}/files/direct-uploads/${started.id}/complete`);
    expect(Date.parse(started.expires_at) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    const parts = await putParts(started, file);
    const res = await c.t.http.post(new URL(started.complete_url).pathname).send({ parts }).expect(201);
    expect(c.bytesReceived() - before).toBeLessThan(64 * 1024);
    expect(res.body).toMatchObject({
      field: 'gallery',
      mime_type: 'application/pdf',
      size: file.length,
      checksum_sha256: sha256(file),
    });
    const download = await c.t.http
      .get(`/files/${res.body.id as number}/content`)
      .buffer(true)
      .expect(200);
    expect(sha256(download.body as Buffer)).toBe(sha256(file));
    expect(await row(c.t, started.id)).toBeUndefined();
    expectProblem(await complete(started.id, parts), 404, 'direct-upload-not-found');
  });

  it('replaces a single field’s file like an upload through the service (201, then 200 with the same id)', async () => {
    const first = (await start(c.t, 'cover', c.product, PNG, 'image/png').expect(201)).body as Started;
    const created = await complete(first.id, await putParts(first, PNG)).expect(201);
    const second = (await start(c.t, 'cover', c.product, PNG, 'image/png').expect(201)).body as Started;
    const replaced = await complete(second.id, await putParts(second, PNG)).expect(200);
    expect(replaced.body.id).toBe(created.body.id);
    expect(replaced.body).toMatchObject({ mime_type: 'image/png', width: 1, height: 1 });
  });

  it('deletes an object whose sniffed type the field refuses: no object, no record (415)', async () => {
    const text = Buffer.from('not a picture at all\n'.repeat(500));
    const started = (await start(c.t, 'gallery', c.product, text, 'image/png').expect(201)).body as Started;
    const key = (await row(c.t, started.id))!.storage_key;
    expectProblem(await complete(started.id, await putParts(started, text)), 415, 'unsupported-media-type');
    expect(await storedKeys(c.t)).not.toContain(key);
    expect(await galleryNames()).not.toContain(key);
    expect(await row(c.t, started.id)).toBeUndefined();
  });

  it('deletes an object whose size differs from the declared one: no object, no record (422)', async () => {
    const file = pdfOf(4000);
    const started = (await start(c.t, 'gallery', c.product, file, 'application/pdf').expect(201)).body as Started;
    const { storage_key: key, s3_upload_id: uploadId } = (await row(c.t, started.id))!;
    // A storage that does not hold a part to its signed length: sent here with the bucket's own credentials.
    const client = s3ClientOf(c.s3);
    const { ETag } = await client.send(
      new UploadPartCommand({
        Bucket: 'direct-e2e',
        Key: key,
        UploadId: uploadId,
        PartNumber: 1,
        Body: file.subarray(0, 3000),
      }),
    );
    client.destroy();
    expectProblem(await complete(started.id, [{ part_number: 1, etag: ETag }]), 422, 'direct-upload-size-mismatch');
    expect(await storedKeys(c.t)).not.toContain(key);
    expect(await galleryNames()).not.toContain(key);
  });

  it('refuses an over-size file before any URL is handed out (413), and a declared type the field refuses (415)', async () => {
    const rows = async () => Number((await c.t.dataSource.query('SELECT COUNT(*) AS n FROM direct_uploads'))[0].n);
    const count = await rows();
    const big = await c.t.http
      .post(`/files/product/${c.product}/cover/direct-uploads`)
      .send({ filename: 'big.png', content_type: 'image/png', size: 5 * MiB + 1 });
    expect(expectProblem(big, 413, 'file-too-large')).not.toHaveProperty('parts');
    const svg = await start(c.t, 'gallery', c.product, PNG, 'image/svg+xml');
    expectProblem(svg, 415, 'unsupported-media-type');
    expect(await rows()).toBe(count);
  });

  it('answers another principal 404 for the upload, and a wrong part list 400 that can be corrected', async () => {
    const integration = await createIntegration(c.t, ['product:read', 'product:write']);
    const token = await request(c.t.url)
      .post('/api/oauth/token')
      .set('Authorization', basic(integration.access_key_id, integration.secret_access_key))
      .type('form')
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    const other = `Bearer ${token.body.access_token as string}`;
    const file = pdfOf(2000);
    const started = (await start(c.t, 'gallery', c.product, file, 'application/pdf').expect(201)).body as Started;
    const parts = await putParts(started, file);
    expectProblem(await complete(started.id, parts, other), 404, 'direct-upload-not-found');
    expectProblem(
      await request(c.t.url).delete(`/files/direct-uploads/${started.id}`).set('Authorization', other),
      404,
    );
    expectProblem(await complete(started.id, [{ part_number: 1, etag: '"0"' }]), 400, 'direct-upload-parts-invalid');
    expectProblem(
      await complete(started.id, [...parts, { part_number: 2, etag: '"0"' }]),
      400,
      'direct-upload-parts-invalid',
    );
    await complete(started.id, parts).expect(201);
  });

  it('completes once when two completions race: one record, the other 409 or 404', async () => {
    const file = pdfOf(3000);
    const before = (await galleryNames()).length;
    const started = (await start(c.t, 'gallery', c.product, file, 'application/pdf').expect(201)).body as Started;
    const parts = await putParts(started, file);
    const statuses = (await Promise.all([complete(started.id, parts), complete(started.id, parts)])).map(
      (r) => r.status,
    );
    expect(statuses.sort()).toEqual(expect.arrayContaining([201]));
    expect([404, 409]).toContain(statuses.find((s) => s !== 201));
    expect((await galleryNames()).length).toBe(before + 1);
  });

  it('cancels: the parts are dropped and the upload is gone', async () => {
    const file = pdfOf(9 * MiB);
    const started = (await start(c.t, 'gallery', c.product, file, 'application/pdf').expect(201)).body as Started;
    await putParts(started, file, [1]);
    await c.t.http.delete(`/files/direct-uploads/${started.id}`).expect(204);
    expect((await fetch(started.parts[1].url, { method: 'PUT', body: file.subarray(8 * MiB) })).status).toBe(404);
    expectProblem(
      await complete(started.id, [
        { part_number: 1, etag: 'x' },
        { part_number: 2, etag: 'y' },
      ]),
      404,
    );
  });

  it('sweeps expired uploads: their multipart uploads aborted, an object never recorded removed', async () => {
    const file = pdfOf(9 * MiB);
    const unfinished = (await start(c.t, 'gallery', c.product, file, 'application/pdf').expect(201)).body as Started;
    await putParts(unfinished, file, [1]);
    const crashed = (await start(c.t, 'gallery', c.product, file, 'application/pdf').expect(201)).body as Started;
    const parts = await putParts(crashed, file);
    const { storage_key: key, s3_upload_id: uploadId } = (await row(c.t, crashed.id))!;
    // As if the service stopped between joining the parts and recording the file.
    const client = s3ClientOf(c.s3);
    await client.send(
      new CompleteMultipartUploadCommand({
        ...{ Bucket: 'direct-e2e', Key: key, UploadId: uploadId },
        MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.part_number, ETag: p.etag })) },
      }),
    );
    client.destroy();
    expect(await storedKeys(c.t)).toContain(key);
    const clock = c.t.app.get(Clock);
    const later = new Date(Date.now() + 6 * 60_000);
    clock.now = () => later;
    try {
      expectProblem(
        await complete(unfinished.id, [
          { part_number: 1, etag: 'x' },
          { part_number: 2, etag: 'y' },
        ]),
        404,
      );
      const report = await c.t.app.get(OrphanSweeper).sweep();
      expect(report.expiredDirectUploads).toBeGreaterThanOrEqual(2);
    } finally {
      clock.now = () => new Date();
    }
    expect(await row(c.t, unfinished.id)).toBeUndefined();
    expect(await row(c.t, crashed.id)).toBeUndefined();
    expect((await fetch(unfinished.parts[1].url, { method: 'PUT', body: file.subarray(8 * MiB) })).status).toBe(404);
    expect(await storedKeys(c.t)).not.toContain(key);
  });
});

// s3rver 3.7 checks the access key and the parameters of a presigned URL, not its SigV4 signature; the signed
// Content-Length of each part is checked in s3-multipart.spec.ts.
describe('Direct-to-S3 uploads (s3rver, the storage of the other S3 suites)', () => {
  const c = directUploadContext(() => startS3Server('direct-s3rver'));

  it('takes parts PUT to the presigned URLs and records the file', async () => {
    const file = pdfOf(9 * MiB);
    const started = (await start(c.t, 'gallery', c.product, file, 'application/pdf').expect(201)).body as Started;
    const parts = await putParts(started, file);
    const res = await c.t.http.post(new URL(started.complete_url).pathname).send({ parts }).expect(201);
    expect(res.body).toMatchObject({ size: file.length, checksum_sha256: sha256(file) });
  });
});

describe('Direct uploads on local disk storage', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t.close({ destroy: true }));

  it('answers 409 direct-uploads-unavailable: the plain upload takes the file', async () => {
    const product = (await t.http.post('/products').send({ name: 'Lamp' }).expect(201)).body.id as number;
    const res = await start(t, 'gallery', product, PNG, 'image/png');
    expectProblem(res, 409, 'direct-uploads-unavailable');
  });
});
