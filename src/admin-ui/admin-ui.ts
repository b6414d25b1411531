import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { problem, PROBLEM_CONTENT_TYPE } from '@file-fields/nest';
import type { FilesConfig } from '../files/index.js';
import { serveFavicon } from './favicon.js';

/** Where `npm run build:admin` writes the administration UI: admin/dist of the project the service starts in. */
export const ADMIN_UI_DIST = resolve('admin', 'dist');
const ADMIN_UI_PATH = '/admin';

/**
 * Where the pages may load images from besides their own origin: file URLs are absolute on the service's public URL
 * (the issuer), another origin when the UI is opened at another address (the internal one, behind a proxy); with
 * FILE_URL_MODE=direct they point at the bucket (its endpoint, or AWS's virtual-hosted names).
 */
export function imageOrigins(files: FilesConfig, publicUrl?: string): string[] {
  if (files.urlMode === 'direct' && files.storage.driver === 's3') {
    return [files.storage.endpoint ? new URL(files.storage.endpoint).origin : 'https://*.amazonaws.com'];
  }
  return publicUrl ? [new URL(publicUrl).origin] : [];
}

/** The policy of the UI's pages: scripts, styles and data from this origin only; no inline script, no framing. */
export function adminContentSecurityPolicy(
  extraImageOrigins: readonly string[],
  extraConnectOrigins: readonly string[] = [],
): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    ['img-src', "'self'", 'blob:', ...extraImageOrigins].join(' '),
    ['connect-src', "'self'", ...extraConnectOrigins].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Serves the administration UI, a single-page application, at /admin: its hashed assets cached for a year as
 * immutable, every other path under /admin answered with its index.html (not cached, so a new build is picked up),
 * all under a strict Content-Security-Policy and never in a frame; the service's icon at /favicon.ico and
 * /favicon.svg. Routes under /admin and the icon's two paths only: no other request runs any of it. Public: the
 * pages hold no data; the API they call asks for tokens. Without a build (`npm run build:admin`), /admin says so with a 503 problem detail. `publicUrl`:
 * the base of file URLs, whose images the pages show.
 */
export function serveAdminUi(
  app: Express,
  files: FilesConfig,
  publicUrl: string | undefined,
  dist = ADMIN_UI_DIST,
): void {
  serveFavicon(app);
  const policy = adminContentSecurityPolicy(imageOrigins(files, publicUrl));
  const pageHeaders = (res: Response) => {
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-cache');
  };
  const index = join(dist, 'index.html');
  const send = (res: Response, status: number, detail: string) =>
    res.status(status).type(PROBLEM_CONTENT_TYPE).send(problem(status, detail));
  const statics = express.static(join(dist, 'assets'), { index: false, immutable: true, maxAge: '365d' });
  // serve-static leaves a Cache-Control already set alone, and API answers start with `no-store`.
  const assets = (req: Request, res: Response, next: NextFunction) => {
    res.removeHeader('Cache-Control');
    statics(req, res, () => {
      res.setHeader('Cache-Control', 'no-store');
      next();
    });
  };
  const page = (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!existsSync(index)) {
      send(res, 503, 'The administration UI is not built: run `npm run build:admin` (npm start does).');
      return;
    }
    pageHeaders(res);
    res.sendFile(index);
  };
  app.use(`${ADMIN_UI_PATH}/assets`, assets, (_req: Request, res: Response) =>
    send(res, 404, 'No such asset of the administration UI.'),
  );
  app.use(ADMIN_UI_PATH, page);
}
