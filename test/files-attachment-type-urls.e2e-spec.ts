import request from 'supertest';
import { createIntegration, integrationToken } from './support/admin-api.js';
import { expectProblem, PNG } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** RFC 6750 §3: `scope="<tokens>"`, each token of %x21 / %x23-5B / %x5D-7E, separated by single spaces. */
const WELL_FORMED_CHALLENGE =
  /^Bearer realm="[^"]*", error="[a-z_]+"(, scope="[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*")?$/;

/** Attachment types a URL can carry that no entity has: beyond Latin-1, a CR LF with a header after it, a quote. */
const MADE_UP = ['%F0%9F%99%82', 'a%0d%0aSet-Cookie:%20x=1', 'a%22b'];

/*
 * The attachment type of a file route comes from its URL, so it can be any text. A type no entity has is answered
 * 404 before any permission is checked: never a 500 from a header Node refuses, never a broken challenge.
 */
describe('Attachment types named by the URL', () => {
  let t: TestApp;
  /** A token that may read products and nothing else. */
  let reader: string;

  beforeAll(async () => {
    t = await startTestApp();
    const integration = await createIntegration(t, ['product:read']);
    reader = await integrationToken(t.url, integration);
  });
  afterAll(async () => t.close({ destroy: true }));

  const as = () => request(t.url);
  /** Every route whose path names an attachment type, as a client would call it. */
  const routes: Array<[string, (type: string) => request.Test]> = [
    ['multipart upload', (type) => as().post(`/files/${type}/1/x`).attach('file', PNG, 'a.png')],
    [
      'tus creation',
      (type) => as().post(`/files/${type}/1/x`).set('Tus-Resumable', '1.0.0').set('Upload-Length', '10'),
    ],
    [
      'IETF draft creation',
      (type) =>
        as()
          .post(`/files/${type}/1/x`)
          .set('Upload-Complete', '?1')
          .set('Upload-Draft-Interop-Version', '8')
          .type('application/octet-stream')
          .send(PNG),
    ],
    [
      'direct upload start',
      (type) =>
        as()
          .post(`/files/${type}/1/x/direct-uploads`)
          .send({ filename: 'a.png', size: PNG.length, content_type: 'image/png' }),
    ],
    ['reorder', (type) => as().put(`/files/${type}/1/x/order`).send({ ids: [] })],
  ];

  describe.each(routes)('%s', (_name, send) => {
    it.each(MADE_UP)('answers 404 for the type %s, to a token lacking any permission on it', async (type) => {
      const res = await send(type).set('Authorization', `Bearer ${reader}`);
      expectProblem(res, 404, 'unknown-attachment-type');
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('still answers 403 with a well-formed challenge for a known type the token cannot write', async () => {
      const res = await send('product').set('Authorization', `Bearer ${reader}`);
      expectProblem(res, 403, 'insufficient-scope');
      expect(res.headers['www-authenticate']).toBe(
        'Bearer realm="file-fields", error="insufficient_scope", scope="product:write"',
      );
      expect(res.headers['www-authenticate']).toMatch(WELL_FORMED_CHALLENGE);
    });

    it('asks for a token before it says anything of the type', async () => {
      const res = await send('a%22b');
      expectProblem(res, 401, 'invalid-token');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="file-fields", error="invalid_token"/);
    });
  });
});
