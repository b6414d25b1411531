import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { setSafeResponseDefaults } from '../common/http/http-limits.js';
import type { FilesConfig } from '../files/index.js';
import { adminContentSecurityPolicy, imageOrigins, serveAdminUi } from './admin-ui.js';

const LOCAL = { urlMode: 'proxy', storage: { driver: 'local', root: '/tmp' } } as unknown as FilesConfig;
/** The base of file URLs: the service's public URL, here another origin than the pages'. */
const PUBLIC_URL = 'https://files.example.com/';
/** As the service's entrance sets them on every answer. */
const safeDefaults: express.RequestHandler = (_req, res, next) => {
  setSafeResponseDefaults(res);
  next();
};

describe('serveAdminUi', () => {
  let dist: string;
  let app: express.Express;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'admin-ui-'));
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    app = express();
    // As in the service: API defaults first (Cache-Control: no-store), then the UI.
    app.use(safeDefaults);
    serveAdminUi(app, LOCAL, PUBLIC_URL, dist);
  });
  afterAll(() => rm(dist, { recursive: true, force: true }));

  it('answers every page path with index.html, uncached, under a strict policy and never in a frame', async () => {
    for (const path of ['/admin', '/admin/', '/admin/settings/system/integrations', '/admin/content/product/3']) {
      const res = await request(app).get(path).expect(200);
      expect(res.text).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toBe(adminContentSecurityPolicy(['https://files.example.com']));
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self';/);
      expect(res.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
    }
  });

  it('serves hashed assets as immutable for a year, and a missing one as a 404 problem', async () => {
    const asset = await request(app).get('/admin/assets/index-abc123.js').expect(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await request(app).get('/admin/assets/nope.js').expect(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(missing.body).toMatchObject({ status: 404, detail: expect.stringMatching(/No such asset/) });
  });

  it('never leaves the build directory', async () => {
    await request(app).get('/admin/assets/..%2f..%2fetc%2fpasswd').expect(404);
    await request(app).get('/admin/assets/%2e%2e/index.html').expect(404);
  });

  it('says how to build the UI when it is not built', async () => {
    const bare = express();
    serveAdminUi(bare, LOCAL, undefined, join(dist, 'missing'));
    const res = await request(bare).get('/admin/settings').expect(503);
    expect(res.body.detail).toMatch(/npm run build:admin/);
  });

  it('serves the icon, cached for long, also without a build of the UI', async () => {
    const bare = express();
    bare.use(safeDefaults);
    serveAdminUi(bare, LOCAL, undefined, join(dist, 'missing'));
    for (const [path, type] of [
      ['/favicon.ico', 'image/x-icon'],
      ['/favicon.svg', 'image/svg+xml'],
    ]) {
      const res = await request(bare).get(path).buffer(true).expect(200);
      expect(res.headers['content-type']).toMatch(new RegExp(`^${type.replace('+', '\\+')}`));
      expect(res.headers['cache-control']).toBe('public, max-age=31536000');
      expect(Number(res.headers['content-length'])).toBeGreaterThan(100);
    }
    await request(bare).get('/favicon.ico/x').expect(404);
  });

  it('lets other methods and paths through', async () => {
    app.post('/admin', (_req, res) => res.status(418).end());
    app.get('/administration', (_req, res) => res.status(418).end());
    await request(app).post('/admin').expect(418);
    await request(app).get('/administration').expect(418);
  });

  it('admits images from the origin of the file URLs: the public URL, or the bucket when they point there', () => {
    expect(imageOrigins(LOCAL)).toEqual([]);
    expect(imageOrigins(LOCAL, 'http://127.0.0.1:3000')).toEqual(['http://127.0.0.1:3000']);
    expect(adminContentSecurityPolicy(imageOrigins(LOCAL, PUBLIC_URL))).toMatch(
      /img-src 'self' blob: https:\/\/files\.example\.com;/,
    );
    const direct = {
      urlMode: 'direct',
      storage: { driver: 's3', bucket: 'b', endpoint: 'http://127.0.0.1:4569/' },
    } as unknown as FilesConfig;
    expect(imageOrigins(direct, PUBLIC_URL)).toEqual(['http://127.0.0.1:4569']);
    expect(adminContentSecurityPolicy(imageOrigins(direct))).toMatch(
      /img-src 'self' blob: http:\/\/127\.0\.0\.1:4569;/,
    );
  });
});
