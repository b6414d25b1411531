import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { FileUrlStorage, Upload, type PreviousUpload } from 'tus-js-client';
import { Clock, OrphanSweeper } from '@file-fields/nest';
import { createIntegration } from './support/admin-api.js';
import { expectProblem, PDF, PNG } from './support/fixtures.js';
import {
  ADMIN_PASSWORD,
  createTestDatabase,
  passwordToken,
  startApp,
  startTestApp,
  type TestApp,
} from './support/test-app.js';

const TUS = { 'Tus-Resumable': '1.0.0' };
/**
 * A tus creation answers 201 without a body, where the operation documents the multipart answer's record: OpenAPI
 * cannot tell the two 201s apart by request header, so the document describes this one in words only.
 */
const OCTETS = 'application/offset+octet-stream';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('Resumable uploads over tus 1.0.0 (local disk)', () => {
  let t: TestApp;
  let token: string;
  let urlStorageDir: string;
  const raw = () => request(t.url);
  const auth = (bearer = token) => ({ ...TUS, Authorization: `Bearer ${bearer}` });
  const createArticle = async () =>
    (await t.http.post('/articles').send({ title: 'tus' }).expect(201)).body.id as number;
  const unfinishedFiles = async () =>
    (await readdir(join(t.dataDir, 'files', '.resumable'), { recursive: true, withFileTypes: true }).catch(() => []))
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  const create = async (path: string, headers: Record<string, string>, bearer = token) => {
    const res = await raw().post(path).set(auth(bearer)).set(headers).expect(201);
    const location = new URL(res.headers.location);
    expect(location.pathname).toMatch(/^\/files\/uploads\/[A-Za-z0-9_-]{27}$/);
    expect(res.text).toBe('');
    return location.pathname;
  };
  const patch = (location: string, offset: number, body: Buffer, headers: Record<string, string> = {}) =>
    raw()
      .patch(location)
      .set(auth())
      .set({ 'Content-Type': OCTETS, 'Upload-Offset': String(offset), ...headers })
      .send(body);

  beforeAll(async () => {
    t = await startTestApp();
    token = (await passwordToken(t.url, 'admin', ADMIN_PASSWORD)).access_token;
    urlStorageDir = await mkdtemp(join(tmpdir(), 'tus-urls-'));
  });
  afterAll(async () => {
    await t.close({ destroy: true });
    await rm(urlStorageDir, { recursive: true, force: true });
  });

  it('tus-js-client: interrupted at about 40 %, resumed with findPreviousUploads, ends in a record of the same sha256', async () => {
    const id = await createArticle();
    const file = randomBytes(4 * 1024 * 1024 + 123);
    const urlStorage = new FileUrlStorage(join(urlStorageDir, 'urls.json'));
    const options = {
      endpoint: `${t.url}/files/article/${id}/attachments`,
      headers: { Authorization: `Bearer ${token}` },
      metadata: { filename: 'video.bin', filetype: 'application/octet-stream' },
      chunkSize: 256 * 1024,
      retryDelays: null,
      urlStorage,
    };
    const first = new Upload(file, options);
    const interruptedAt = await new Promise<number>((resolve, reject) => {
      first.options.onError = reject;
      first.options.onChunkComplete = (_size, accepted, total) => {
        if (accepted >= total * 0.4) void first.abort().then(() => resolve(accepted), reject);
      };
      first.start();
    });
    expect(interruptedAt).toBeLessThan(file.length * 0.5);
    const head = await raw().head(new URL(first.url!).pathname).set(auth()).expect(200);
    expect(head.headers['upload-offset']).toBe(String(interruptedAt));
    expect(head.headers['upload-length']).toBe(String(file.length));
    expect(head.headers['cache-control']).toBe('no-store');

    const second = new Upload(file, options);
    const previous: PreviousUpload[] = await second.findPreviousUploads();
    expect(previous.map((upload) => upload.uploadUrl)).toEqual([first.url]);
    second.resumeFromPreviousUpload(previous[0]);
    let resumedFrom: number | undefined;
    const fileId = await new Promise<string>((resolve, reject) => {
      second.options.onError = reject;
      second.options.onProgress = (sent) => (resumedFrom ??= sent);
      second.options.onSuccess = ({ lastResponse }) => resolve(lastResponse.getHeader('File-Id') ?? '');
      second.start();
    });
    expect(second.url).toBe(first.url);
    // It went on from where the first stopped, not from the start.
    expect(resumedFrom).toBeGreaterThanOrEqual(interruptedAt);
    const record = (await t.http.get(`/files/${fileId}`).expect(200)).body;
    expect(record).toMatchObject({ original_name: 'video.bin', size: file.length, field: 'attachments' });
    expect(record.checksum_sha256).toBe(sha256(file));
    const content = await t.http.get(`/files/${fileId}/content`).buffer(true).expect(200);
    expect(sha256(content.body as Buffer)).toBe(sha256(file));
    await raw().head(new URL(first.url!).pathname).set(auth()).expect(404);
    expect(await unfinishedFiles()).toEqual([]);
  });

  it('answers OPTIONS without a token, 412 to another version and 405 to other methods', async () => {
    const res = await raw().options('/files/uploads/anything').expect(204);
    expect(res.headers).toMatchObject({
      'tus-version': '1.0.0',
      'tus-max-size': String(52_428_800),
      'tus-checksum-algorithm': expect.stringContaining('sha256'),
    });
    expect(res.headers['tus-extension']).toContain('creation-with-upload');
    const id = await createArticle();
    const old = await raw()
      .post(`/files/article/${id}/attachments`)
      .set(auth())
      .set({ 'Tus-Resumable': '0.2.2', 'Upload-Length': '10' });
    expectProblem(old, 412, 'protocol-version-unsupported');
    expect(old.headers['tus-version']).toBe('1.0.0');
    const location = await create(`/files/article/${id}/attachments`, { 'Upload-Length': '10' });
    const get = await raw().get(location).set(auth());
    expectProblem(get, 405, 'method-not-allowed');
    expect(get.headers.allow).toBe('OPTIONS, HEAD, PATCH, DELETE');
  });

  it('answers 413 to an Upload-Length over the field maximum before any byte, and stores nothing', async () => {
    const id = await createArticle();
    const product = (await t.http.post('/products').send({ name: 'Big' }).expect(201)).body.id as number;
    const before = await t.dataSource.query('SELECT COUNT(*) AS n FROM resumable_uploads');
    const res = await raw()
      .post(`/files/product/${product}/cover`)
      .set(auth())
      .set({ 'Upload-Length': String(5 * 1024 * 1024 + 1) });
    expectProblem(res, 413, 'file-too-large');
    expect(await t.dataSource.query('SELECT COUNT(*) AS n FROM resumable_uploads')).toEqual(before);
    expectProblem(
      await raw().post(`/files/article/${id}/attachments`).set(auth()).set({ 'Upload-Defer-Length': '2' }),
      400,
      'invalid-upload-header',
    );
  });

  it('ends the upload with 415 when the first bytes show a type the field refuses', async () => {
    const id = await createArticle();
    const body = Buffer.concat([PDF, Buffer.alloc(6000, 0x20)]);
    const location = await create(`/files/article/${id}/thumbnail`, { 'Upload-Length': String(body.length * 2) });
    expectProblem(await patch(location, 0, body), 415, 'unsupported-media-type');
    await raw().head(location).set(auth()).expect(404);
    expect(await unfinishedFiles()).toEqual([]);
    const wrongType = await raw()
      .patch(location)
      .set(auth())
      .set({ 'Content-Type': 'application/octet-stream', 'Upload-Offset': '0' })
      .send(body);
    expectProblem(wrongType, 415, 'not-offset-octet-stream');
  });

  it("answers 404 to another principal's token, and works with a new token of the creator", async () => {
    const id = await createArticle();
    const location = await create(`/files/article/${id}/attachments`, { 'Upload-Length': '8' });
    const other = await createIntegration(t, ['article:write']);
    const otherToken = (
      await raw()
        .post('/api/oauth/token')
        .auth(other.access_key_id, other.secret_access_key)
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(200)
    ).body.access_token as string;
    // HEAD answers carry no body: the status alone.
    await raw().head(location).set(auth(otherToken)).expect(404);
    const otherPatch = await raw()
      .patch(location)
      .set(auth(otherToken))
      .set({ 'Content-Type': OCTETS, 'Upload-Offset': '0' })
      .send(Buffer.from('12345678'));
    expectProblem(otherPatch, 404, 'upload-not-found');
    expectProblem(await raw().delete(location).set(auth(otherToken)), 404, 'upload-not-found');
    const fresh = (await passwordToken(t.url, 'admin', ADMIN_PASSWORD)).access_token;
    const done = await raw()
      .patch(location)
      .set(auth(fresh))
      .set({ 'Content-Type': OCTETS, 'Upload-Offset': '0' })
      .send(Buffer.from('12345678'))
      .expect(204);
    expect(done.headers['upload-offset']).toBe('8');
    expect(done.headers['file-id']).toMatch(/^\d+$/);
  });

  it('answers 409 to a wrong offset, 460 to a wrong checksum (discarding the body), and completes a deferred length', async () => {
    const id = await createArticle();
    const location = await create(`/files/article/${id}/attachments`, { 'Upload-Defer-Length': '1' });
    const part = randomBytes(5000);
    expectProblem(await patch(location, 7, part), 409, 'upload-offset-mismatch');
    const wrong = `sha256 ${createHash('sha256').update('other').digest('base64')}`;
    expectProblem(await patch(location, 0, part, { 'Upload-Checksum': wrong }), 460, 'checksum-mismatch');
    expect((await raw().head(location).set(auth()).expect(200)).headers['upload-offset']).toBe('0');
    const right = `sha256 ${createHash('sha256').update(part).digest('base64')}`;
    const first = await patch(location, 0, part, { 'Upload-Checksum': right }).expect(204);
    expect(first.headers['upload-offset']).toBe('5000');
    expect(new Date(first.headers['upload-expires']).getTime()).toBeGreaterThan(Date.now());
    const head = await raw().head(location).set(auth()).expect(200);
    expect(head.headers['upload-defer-length']).toBe('1');
    const rest = randomBytes(100);
    await patch(location, 5000, rest).expect(204);
    // An empty PATCH that declares the length completes the upload.
    const last = await patch(location, 5100, Buffer.alloc(0), { 'Upload-Length': '5100' }).expect(204);
    const record = (await t.http.get(`/files/${last.headers['file-id']}`).expect(200)).body;
    expect(record).toMatchObject({ size: 5100, checksum_sha256: sha256(Buffer.concat([part, rest])) });
  });

  it('creates with the first bytes (creation-with-upload) and terminates with DELETE', async () => {
    const id = await createArticle();
    const res = await raw()
      .post(`/files/article/${id}/attachments`)
      .set(auth())

      .set({ 'Upload-Length': '20000', 'Content-Type': OCTETS, 'Upload-Metadata': `filename ${b64('notes.txt')}` })
      .send(Buffer.alloc(10000, 0x61))
      .expect(201);
    expect(res.headers['upload-offset']).toBe('10000');
    const location = new URL(res.headers.location).pathname;
    const head = await raw().head(location).set(auth()).expect(200);
    expect(head.headers['upload-metadata']).toBe(`filename ${b64('notes.txt')}`);
    expect(await unfinishedFiles()).toHaveLength(1);
    await raw().delete(location).set(auth()).expect(204);
    await raw().head(location).set(auth()).expect(404);
    expect(await unfinishedFiles()).toEqual([]);
  });

  it('refuses a second PATCH while one streams (423), then lets the first finish', async () => {
    const id = await createArticle();
    const location = await create(`/files/article/${id}/attachments`, { 'Upload-Length': '20000' });
    const first = new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${t.url}${location}`, {
        method: 'PATCH',
        headers: { ...auth(), 'Content-Type': OCTETS, 'Upload-Offset': '0', 'Content-Length': '20000' },
      });
      req.on('response', (res) => resolve(res.statusCode!)).on('error', reject);
      req.write(Buffer.alloc(10000, 0x62));
      setTimeout(() => {
        void patch(location, 0, Buffer.alloc(10, 0x63)).then((second) => {
          expectProblem(second, 423, 'upload-locked');
          req.end(Buffer.alloc(10000, 0x62));
        }, reject);
      }, 300);
    });
    expect(await first).toBe(204);
  });

  it('checks a multi field count again at completion (409), ending the upload', async () => {
    const id = await createArticle();
    const location = await create(`/files/article/${id}/attachments`, { 'Upload-Length': '10' });
    for (let n = 0; n < 10; n += 1) {
      await t.http.post(`/files/article/${id}/attachments`).attach('file', PNG, `f${n}.png`).expect(201);
    }
    expectProblem(await patch(location, 0, Buffer.alloc(10, 0x64)), 409, 'field-full');
    await raw().head(location).set(auth()).expect(404);
    expect(await unfinishedFiles()).toEqual([]);
  });

  it('sweeps an expired upload, row and bytes', async () => {
    const id = await createArticle();
    const location = await create(`/files/article/${id}/attachments`, { 'Upload-Length': '20000' });
    await patch(location, 0, Buffer.alloc(5000, 0x65)).expect(204);
    expect(await unfinishedFiles()).toHaveLength(1);
    const clock = t.app.get(Clock);
    const realNow = clock.now.bind(clock);
    clock.now = () => new Date(realNow().getTime() + 25 * 3_600_000);
    try {
      const report = await t.app.get(OrphanSweeper).sweep();
      // This suite's other unfinished uploads expired too.
      expect(report.expiredUploads.length).toBeGreaterThanOrEqual(1);
    } finally {
      clock.now = realNow;
    }
    await raw().head(location).set(auth()).expect(404);
    expect(await t.dataSource.query('SELECT id FROM resumable_uploads')).toEqual([]);
    expect(await unfinishedFiles()).toEqual([]);
  });
});

describe('Resumable uploads across instances (one database, one storage root)', () => {
  it('continues on another instance an upload started on the first, to a record of the right sha256', async () => {
    const database = await createTestDatabase();
    const a = await startApp(database);
    const b = await startApp(database, { OAUTH_ISSUER: a.url });
    try {
      const token = (await passwordToken(a.url, 'admin', ADMIN_PASSWORD)).access_token;
      const headers = { ...TUS, Authorization: `Bearer ${token}` };
      const { id } = (await a.http.post('/articles').send({ title: 'two' }).expect(201)).body as { id: number };
      const created = await request(a.url)
        .post(`/files/article/${id}/attachments`)
        .set(headers)

        .set({ 'Upload-Length': '300000' })
        .expect(201);
      const location = new URL(created.headers.location).pathname;
      const file = randomBytes(300_000);
      const part = (app: TestApp, from: number, to: number) =>
        request(app.url)
          .patch(location)
          .set(headers)
          .set({ 'Content-Type': OCTETS, 'Upload-Offset': String(from) })
          .send(file.subarray(from, to))
          .expect(204);
      await part(a, 0, 100_000);
      await part(b, 100_000, 200_000);
      // Back on the first: its own hash stopped at 100000, so completion reads the file to hash it.
      const last = await part(a, 200_000, 300_000);
      const record = (await b.http.get(`/files/${last.headers['file-id']}`).expect(200)).body;
      expect(record).toMatchObject({ size: 300_000, checksum_sha256: sha256(file) });
    } finally {
      await b.close();
      await a.close({ destroy: true });
    }
  });
});

function b64(text: string): string {
  return Buffer.from(text).toString('base64');
}
