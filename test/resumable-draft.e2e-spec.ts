import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import request from 'supertest';
import { createIntegration } from './support/admin-api.js';
import { PDF, PNG } from './support/fixtures.js';
import { rawRequest, type RawAnswer } from './support/raw-http.js';
import { ADMIN_PASSWORD, passwordToken, startTestApp, type TestApp } from './support/test-app.js';

const PARTIAL = 'application/partial-upload';
const INTEROP = { 'Upload-Draft-Interop-Version': '8' };
const IANA = 'https://iana.org/assignments/http-problem-types#';
const MIB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A creation that leaves the upload incomplete answers 201 without a body, which the document cannot tell apart. */

describe('Resumable uploads over the IETF draft (draft-ietf-httpbis-resumable-upload-15), raw HTTP', () => {
  let t: TestApp;
  let token: string;
  const auth = (bearer = token) => ({ Authorization: `Bearer ${bearer}` });
  const send = (method: string, path: string, headers: Record<string, string>, body?: Buffer) =>
    rawRequest(`${t.url}${path}`, method, { ...auth(), ...headers, 'Content-Length': String(body?.length ?? 0) }, body);
  const create = (path: string, headers: Record<string, string>, body?: Buffer) =>
    send(
      'POST',
      path,
      {
        'Content-Type': 'application/octet-stream',
        ...headers,
      },
      body,
    );
  const append = (location: string, offset: number, complete: boolean, body: Buffer) =>
    send(
      'PATCH',
      location,
      {
        'Content-Type': PARTIAL,
        'Upload-Offset': String(offset),
        'Upload-Complete': complete ? '?1' : '?0',
        ...INTEROP,
      },
      body,
    );
  const head = (location: string, bearer = token) => send('HEAD', location, { ...auth(bearer), ...INTEROP });
  const pathOf = (answer: RawAnswer) => new URL(String(answer.headers.location)).pathname;
  const newArticle = async () =>
    (await t.http.post('/articles').send({ title: 'draft' }).expect(201)).body.id as number;
  const unfinishedFiles = async () =>
    (
      await readdir(join(t.dataDir, 'files', '.resumable'), { recursive: true, withFileTypes: true }).catch(() => [])
    ).filter((entry) => entry.isFile()).length;
  const problemOf = (answer: RawAnswer, status: number, type: string) => {
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.json()).toMatchObject({ type, status });
    return answer.json();
  };

  beforeAll(async () => {
    t = await startTestApp();
    token = (await passwordToken(t.url, 'admin', ADMIN_PASSWORD)).access_token;
  });
  afterAll(() => t.close({ destroy: true }));

  it('creates with the first part (104 with Location first), resumes a PATCH that broke off, and ends in the same sha256', async () => {
    const id = await newArticle();
    const file = randomBytes(3 * MIB + 17);
    const created = await create(
      `/files/article/${id}/attachments`,
      {
        ...INTEROP,
        'Upload-Complete': '?0',
        'Upload-Length': String(file.length),
        'Content-Disposition': 'inline; filename="clip.bin"',
      },
      file.subarray(0, MIB),
    );
    expect(created.status).toBe(201);
    const location = pathOf(created);
    expect(location).toMatch(/^\/files\/uploads\/[A-Za-z0-9_-]{27}$/);
    expect(created.interim).toEqual([
      {
        status: 104,
        headers: {
          location: String(created.headers.location),
          'upload-limit': expect.stringMatching(/^max-size=52428800, max-age=\d+$/),
          'upload-draft-interop-version': '8',
        },
      },
    ]);
    expect(created.headers).toMatchObject({ 'upload-complete': '?0', 'upload-offset': String(MIB) });

    // A PATCH whose connection breaks after about a mebibyte more: what arrived is kept.
    const rest = file.subarray(MIB);
    await rawRequest(
      `${t.url}${location}`,
      'PATCH',
      {
        ...auth(),
        ...INTEROP,
        'Content-Type': PARTIAL,
        'Upload-Offset': String(MIB),
        'Upload-Complete': '?1',
        'Content-Length': String(rest.length),
      },
      (req) => req.write(rest.subarray(0, MIB), () => setTimeout(() => req.destroy(), 200)),
    ).catch(() => undefined);
    let offset = MIB;
    for (let tries = 0; offset === MIB && tries < 50; tries += 1) {
      await sleep(100);
      const state = await head(location);
      expect(state.status).toBe(204);
      expect(state.headers).toMatchObject({
        'upload-complete': '?0',
        'upload-length': String(file.length),
        'cache-control': 'no-store',
        'upload-limit': expect.stringMatching(/^max-size=52428800, max-age=\d+$/),
      });
      offset = Number(state.headers['upload-offset']);
    }
    expect(offset).toBeGreaterThan(MIB);
    expect(offset).toBeLessThan(file.length);

    const done = await append(location, offset, true, file.subarray(offset));
    expect(done.status).toBe(201);
    expect(done.headers['upload-complete']).toBe('?1');
    const record = done.json();
    expect(record).toMatchObject({ original_name: 'clip.bin', size: file.length, field: 'attachments' });
    expect(record.checksum_sha256).toBe(sha256(file));
    const content = await t.http
      .get(`/files/${String(record.id)}/content`)
      .buffer(true)
      .expect(200);
    expect(sha256(content.body as Buffer)).toBe(sha256(file));
    expect((await head(location)).status).toBe(404);
    expect(await unfinishedFiles()).toBe(0);
  });

  it('creates without a body (no 104 without the interop version), then appends parts; the last one ends it', async () => {
    const id = await newArticle();
    const created = await create(`/files/article/${id}/attachments`, { 'Upload-Complete': '?0' });
    expect(created.status).toBe(201);
    expect(created.interim).toEqual([]);
    expect(created.headers).toMatchObject({
      'upload-offset': '0',
      'upload-limit': expect.stringMatching(/^max-size=/),
    });
    const location = pathOf(created);
    expect((await head(location)).headers['upload-length']).toBeUndefined();
    const parts = [randomBytes(70_000), randomBytes(10)];
    const first = await append(location, 0, false, parts[0]);
    expect(first.status).toBe(204);
    expect(first.headers).toMatchObject({ 'upload-complete': '?0', 'upload-offset': '70000' });
    const last = await append(location, 70_000, true, parts[1]);
    expect(last.status).toBe(201);
    expect(last.json()).toMatchObject({ size: 70_010, checksum_sha256: sha256(Buffer.concat(parts)) });
  });

  it('takes the whole file in one request with Upload-Complete: ?1, answering as a multipart upload (201, then 200)', async () => {
    const id = await newArticle();
    const path = `/files/article/${id}/thumbnail`;
    const before = await unfinishedFiles();
    const first = await create(path, { ...INTEROP, 'Upload-Complete': '?1' }, PNG);
    expect(first.status).toBe(201);
    expect(first.interim.map((interim) => interim.status)).toEqual([104]);
    expect(first.headers['upload-complete']).toBe('?1');
    expect(first.json()).toMatchObject({ mime_type: 'image/png', size: PNG.length, field: 'thumbnail' });
    const again = await create(path, { 'Upload-Complete': '?1' }, PNG);
    expect(again.status).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    // A JSON file is a file, whatever the request's Content-Type says: never read as a request body.
    const json = Buffer.from('{"not":"a request body"}');
    const headers = { 'Upload-Complete': '?1', 'Content-Type': 'application/json' };
    const asJson = await create(`/files/article/${id}/attachments`, headers, json);
    expect(asJson.status).toBe(201);
    expect(asJson.json()).toMatchObject({ size: json.length, checksum_sha256: sha256(json) });
    expect(await unfinishedFiles()).toBe(before);
  });

  it("answers 409 with the upload's offset and the draft's problem type when Upload-Offset is not it", async () => {
    const id = await newArticle();
    const location = pathOf(
      await create(`/files/article/${id}/attachments`, { 'Upload-Complete': '?0' }, randomBytes(100)),
    );
    const wrong = await append(location, 60, false, randomBytes(10));
    const body = problemOf(wrong, 409, `${IANA}mismatching-upload-offset`);
    expect(body).toMatchObject({ 'expected-offset': 100, 'provided-offset': 60 });
    expect(wrong.headers).toMatchObject({ 'upload-offset': '100', 'upload-complete': '?0' });
    expect(Number((await head(location)).headers['upload-offset'])).toBe(100);

    // A last body that ends before the declared length: refused before any byte when Content-Length says so; kept,
    // with the upload going on, when it is chunked. (An Upload-Length the request itself contradicts:
    // draft-request.spec.ts.)
    const file = randomBytes(300);
    const declared = pathOf(
      await create(`/files/article/${id}/attachments`, { 'Upload-Complete': '?0', 'Upload-Length': '300' }),
    );
    const end = { ...auth(), 'Content-Type': PARTIAL, 'Upload-Offset': '0', 'Upload-Complete': '?1' };
    const part = file.subarray(0, 120);
    const announced = await rawRequest(`${t.url}${declared}`, 'PATCH', end, part);
    problemOf(announced, 400, `${IANA}inconsistent-upload-length`);
    expect((await head(declared)).headers['upload-offset']).toBe('0');
    const chunked = await rawRequest(`${t.url}${declared}`, 'PATCH', end, (req) => req.write(part, () => req.end()));
    problemOf(chunked, 400, `${IANA}inconsistent-upload-length`);
    expect((await head(declared)).headers).toMatchObject({ 'upload-offset': '120', 'upload-length': '300' });
    const rest = await append(declared, 120, true, file.subarray(120));
    expect(rest.status).toBe(201);
    expect(rest.json().checksum_sha256).toBe(sha256(file));
  });

  it("answers 413 with Upload-Limit before any byte to a length over the field's maximum, keeping nothing", async () => {
    const product = (await t.http.post('/products').send({ name: 'Big' }).expect(201)).body.id as number;
    const count = async () => (await t.dataSource.query('SELECT COUNT(*) AS n FROM resumable_uploads')) as unknown;
    const before = await count();
    const declared = await create(`/files/product/${product}/cover`, {
      'Upload-Complete': '?0',
      'Upload-Length': String(5 * MIB + 1),
    });
    problemOf(declared, 413, '/problems/file-too-large');
    expect(declared.headers['upload-limit']).toBe(`max-size=${5 * MIB}`);
    // The whole file announced by Content-Length, none of it sent: answered all the same.
    const whole = await rawRequest(
      `${t.url}/files/product/${product}/cover`,
      'POST',
      {
        ...auth(),
        'Upload-Complete': '?1',
        'Content-Length': String(6 * MIB),
      },
      (req) => req.flushHeaders(),
    );
    problemOf(whole, 413, '/problems/file-too-large');
    expect(await count()).toEqual(before);
  });

  it('cancels with DELETE, and ends the upload with 415 (Upload-Complete: ?1) on a type the field refuses', async () => {
    const id = await newArticle();
    const before = await unfinishedFiles();
    const location = pathOf(
      await create(`/files/article/${id}/attachments`, { 'Upload-Complete': '?0' }, randomBytes(5000)),
    );
    expect(await unfinishedFiles()).toBe(before + 1);
    expect((await send('DELETE', location, INTEROP)).status).toBe(204);
    expect((await head(location)).status).toBe(404);
    expect(await unfinishedFiles()).toBe(before);

    const thumbnail = pathOf(await create(`/files/article/${id}/thumbnail`, { 'Upload-Complete': '?0' }));
    const refused = await append(thumbnail, 0, false, Buffer.concat([PDF, Buffer.alloc(6000, 0x20)]));
    problemOf(refused, 415, '/problems/unsupported-media-type');
    expect(refused.headers['upload-complete']).toBe('?1');
    expect((await head(thumbnail)).status).toBe(404);
  });

  it("answers 404 to another principal's token on HEAD, PATCH and DELETE", async () => {
    const id = await newArticle();
    const location = pathOf(await create(`/files/article/${id}/attachments`, { 'Upload-Complete': '?0' }));
    const other = await createIntegration(t, ['article:write']);
    const otherToken = (
      await request(t.url)
        .post('/api/oauth/token')
        .auth(other.access_key_id, other.secret_access_key)
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(200)
    ).body.access_token as string;
    expect((await head(location, otherToken)).status).toBe(404);
    const headers = { ...auth(otherToken), 'Content-Type': PARTIAL, 'Upload-Offset': '0', 'Upload-Complete': '?1' };
    problemOf(await send('PATCH', location, headers, Buffer.from('abc')), 404, '/problems/upload-not-found');
    problemOf(await send('DELETE', location, { ...auth(otherToken), ...INTEROP }), 404, '/problems/upload-not-found');
    expect((await head(location)).status).toBe(204);
  });

  it('refuses another interop version (412), a body not in application/partial-upload (415) and malformed fields (400)', async () => {
    const id = await newArticle();
    const path = `/files/article/${id}/attachments`;
    const old = await create(path, { 'Upload-Complete': '?0', 'Upload-Draft-Interop-Version': '3' });
    problemOf(old, 412, '/problems/protocol-version-unsupported');
    expect(old.headers['upload-draft-interop-version']).toBe('8');
    // One malformed field; which fields are malformed or missing is draft-headers.spec.ts and draft-request.spec.ts.
    problemOf(await create(path, { 'Upload-Complete': 'yes' }), 400, '/problems/invalid-upload-header');
    const location = pathOf(await create(path, { 'Upload-Complete': '?0' }));
    const octets = { 'Upload-Offset': '0', 'Upload-Complete': '?0', 'Content-Type': 'application/octet-stream' };
    problemOf(
      await send('PATCH', location, { ...octets, ...INTEROP }, Buffer.from('x')),
      415,
      '/problems/not-partial-upload',
    );
  });

  it('runs the curl example of docs/resumable-uploads.md to a record of the same sha256', async () => {
    const id = await newArticle();
    const doc = await readFile('docs/resumable-uploads.md', 'utf8');
    const start = doc.indexOf('```sh\nDRAFT=') + '```sh\n'.length;
    const script = doc
      .slice(start, doc.indexOf('```', start))
      .replace('http://127.0.0.1:3000/files/article/1/', `${t.url}/files/article/${id}/`);
    const dir = await mkdtemp(join(tmpdir(), 'draft-curl-'));
    try {
      const file = randomBytes(9 * MIB + 5);
      await writeFile(join(dir, 'video.mp4'), file);
      // Asynchronously: the service answers from this very process.
      const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
        cwd: dir,
        env: { ...process.env, TOKEN: token },
      });
      expect(JSON.parse(stdout)).toMatchObject({
        original_name: 'video.mp4',
        size: file.length,
        checksum_sha256: sha256(file),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
