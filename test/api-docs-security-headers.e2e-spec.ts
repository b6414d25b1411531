import request from 'supertest';
import { startTestApp, type TestApp } from './support/test-app.js';

/*
 * Swagger UI shares the origin of /admin, whose sessionStorage holds the administration UI's refresh token: its page
 * gets the same policy (no script but the service's own, no framing). Swagger UI driven under it: swagger-ui.e2e-spec.
 */
describe('Swagger UI at /api/docs: the headers of the administration UI', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close({ destroy: true }));

  it.each(['/api/docs', '/api/docs/', '/api/docs/index.html'])(
    '%s: a strict Content-Security-Policy, never in a frame, no inline script or style',
    async (path) => {
      const res = await request(t.url)
        .get(path)
        .expect(200)
        .expect('Content-Type', /text\/html/);
      const policy = res.headers['content-security-policy'] as string | undefined;
      expect(policy).toMatch(/(^|; )script-src 'self'(;|$)/);
      expect(policy).toMatch(/(^|; )style-src 'self'(;|$)/);
      expect(policy).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
      expect(policy).toMatch(/(^|; )object-src 'none'(;|$)/);
      expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(res.text).not.toMatch(/<style|\sstyle=/);

      // Every file the page loads is served, from this origin, relative to the page.
      const assets = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
      expect(assets.length).toBeGreaterThanOrEqual(6);
      for (const asset of assets) {
        const url = new URL(asset, `${t.url}${path}`);
        expect(url.origin).toBe(t.url);
        await request(t.url).get(url.pathname).expect(200);
      }
    },
  );

  it('keeps the documents themselves where they were', async () => {
    const json = await request(t.url).get('/api/docs-json').expect(200);
    expect((json.body as { openapi: string }).openapi).toMatch(/^3\./);
    await request(t.url)
      .get('/api/docs/swagger-ui-init.js')
      .expect(200)
      .expect('Content-Type', /javascript/);
  });
});
