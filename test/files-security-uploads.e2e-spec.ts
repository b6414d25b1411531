import { request as httpRequest, type ClientRequest } from 'node:http';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { FileStorage } from '@file-fields/nest';
import { basic, createIntegration } from './support/admin-api.js';
import { eventually } from './support/wait.js';
import { expectProblem, PNG } from './support/fixtures.js';
import { ADMIN_PASSWORD, passwordToken, startTestApp, type TestApp } from './support/test-app.js';

const BOUNDARY = 'slow-upload-boundary';

/** An upload that sends its multipart head and the first bytes of a file, then keeps the connection open. */
function slowUpload(url: string, token: string): ClientRequest {
  const req = httpRequest(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
  req.on('error', () => undefined); // aborted on purpose below
  req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.png"\r\n\r\n`);
  req.write(PNG.subarray(0, 16));
  return req;
}

describe('Uploads: per-principal concurrency, refused markup, file names, file modes', () => {
  let t: TestApp;
  let productId: number;
  let articleId: number;

  const partialFiles = async (): Promise<number> => {
    let count = 0;
    for await (const object of t.app.get(FileStorage).list()) if (object.key.endsWith('.partial')) count += 1;
    return count;
  };
  const attachments = () => `/files/article/${articleId}/attachments`;

  beforeAll(async () => {
    t = await startTestApp({ UPLOADS_PER_PRINCIPAL: '2' });
    productId = (await t.http.post('/products').send({ name: 'slow' }).expect(201)).body.id;
    articleId = (await t.http.post('/articles').send({ title: 'uploads' }).expect(201)).body.id;
  });
  afterAll(async () => t.close({ destroy: true }));

  describe('UPLOADS_PER_PRINCIPAL', () => {
    const open: ClientRequest[] = [];
    afterEach(() => open.splice(0).forEach((req) => req.destroy()));

    it('answers 429 with Retry-After to a principal with that many uploads in flight, not to another one', async () => {
      const { access_token: admin } = await passwordToken(t.url, 'admin', ADMIN_PASSWORD);
      const gallery = `${t.url}/files/product/${productId}/gallery`;
      open.push(slowUpload(gallery, admin), slowUpload(gallery, admin));
      await eventually('both slow uploads are being stored', async () =>
        (await partialFiles()) === 2 ? true : undefined,
      );

      const third = await t.http.post(`/files/product/${productId}/gallery`).attach('file', PNG, 'third.png');
      expectProblem(third, 429, 'too-many-uploads');
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      expect(await partialFiles()).toBe(2);

      const other = await createIntegration(t, ['product:write']);
      const token = await request(t.url)
        .post('/api/oauth/token')
        .set('Authorization', basic(other.access_key_id, other.secret_access_key))
        .type('form')
        .send({ grant_type: 'client_credentials' })
        .expect(200);
      await request(t.url)
        .post(`/files/product/${productId}/gallery`)
        .set('Authorization', `Bearer ${token.body.access_token as string}`)
        .attach('file', PNG, 'other.png')
        .expect(201);

      open.shift()!.destroy();
      await eventually(
        'the aborted upload frees its slot',
        async () =>
          (await t.http.post(`/files/product/${productId}/gallery`).attach('file', PNG, 'again.png')).ok || undefined,
        5000,
        50,
      );
    });
  });

  describe('markup is refused however it is dressed', () => {
    it.each([
      ['HTML without a doctype', '<p>hi</p><script>alert(1)</script>'],
      ['markup after some text', 'Dear reader,\n<img src=x onerror=alert(1)>'],
      ['an SVG without a namespace', '<svg/onload=alert(1)>'],
      [
        'XHTML with an XML declaration',
        '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
      ],
      [
        'SVG with an XML declaration and a DOCTYPE with an internal subset',
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "b">]><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      ],
      ['plain XML', '<?xml version="1.0"?><note>hi</note>'],
    ])('415 for %s', async (_name, body) => {
      const res = await t.http.post(attachments()).attach('file', Buffer.from(body), 'notes.txt');
      expectProblem(res, 415, 'unsupported-media-type');
    });

    it('keeps text with a bare less-than sign text/plain', async () => {
      const res = await t.http.post(attachments()).attach('file', Buffer.from('a < b, x<3, 1 <= 2\n'), 'math.txt');
      expect(res.status).toBe(201);
      expect(res.body.mime_type).toBe('text/plain');
    });
  });

  describe('file names', () => {
    it('keeps a UTF-8 file name as sent', async () => {
      const res = await t.http.post(attachments()).attach('file', Buffer.from('hello\n'), 'café 😀.txt');
      expect(res.status).toBe(201);
      expect(res.body.original_name).toBe('café 😀.txt');
      const read = await t.http.get(`/files/${res.body.id as number}`).expect(200);
      expect(read.body.original_name).toBe('café 😀.txt');
    });

    it('strips bidirectional control characters that disguise an extension', async () => {
      const res = await t.http.post(attachments()).attach('file', Buffer.from('not a program\n'), 'evil\u202Egnp.exe');
      expect(res.status).toBe(201);
      expect(res.body.original_name).toBe('evilgnp.exe');
    });
  });

  describe('file modes', () => {
    it('creates the storage directory 0700 and stored files 0600', async () => {
      const res = await t.http.post(attachments()).attach('file', PNG, 'private.png').expect(201);
      const storageDir = join(t.dataDir, 'files');
      expect(statSync(storageDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(storageDir, 'article', String(articleId))).mode & 0o777).toBe(0o700);
      expect(statSync(join(storageDir, ...(res.body.path as string).split('/'))).mode & 0o777).toBe(0o600);
    });

    // The SQLite file exists only when no PostgreSQL database is under test.
    if (!process.env.TEST_DATABASE_URL) {
      it('creates the SQLite database file and its WAL 0600', () => {
        expect(statSync(join(t.dataDir, 'app.sqlite')).mode & 0o777).toBe(0o600);
        expect(statSync(join(t.dataDir, 'app.sqlite-wal')).mode & 0o777).toBe(0o600);
      });
    }
  });
});
