import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import { adminContentSecurityPolicy } from '../admin-ui/admin-ui.js';
import { FAVICON_PATH } from '../admin-ui/favicon.js';
import type { ConstantDocument } from '../common/http/constant-document.js';

/**
 * Swagger UI's page with no inline script or style: swagger-ui-dist's own stylesheets and scripts and the start
 * script (swagger-ui-init.js), all files served beside it. `base` leads from the page's URL to them.
 */
function pageHtml(base: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>Swagger UI</title>
  <link rel="stylesheet" type="text/css" href="${base}swagger-ui.css">
  <link rel="stylesheet" type="text/css" href="${base}index.css">
  <link rel="icon" type="image/svg+xml" href="${FAVICON_PATH}">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${base}swagger-ui-bundle.js"></script>
  <script src="${base}swagger-ui-standalone-preset.js"></script>
  <script src="${base}swagger-ui-init.js"></script>
</body>
</html>
`;
}

/**
 * The start script: Swagger UI on the document it carries (`documentJson`). BaseLayout: without the top bar, whose
 * logo brings an inline <style> the page's policy refuses (and a URL field).
 */
export function swaggerUiInitScript(documentJson: string): string {
  return `window.onload = function () {
  window.ui = SwaggerUIBundle({
    spec: ${documentJson},
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'BaseLayout',
  });
};
`;
}

/** The files of swagger-ui-dist the page loads. */
const ASSETS = new Set(['swagger-ui.css', 'index.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js']);

/**
 * Swagger UI under the administration UI's headers, as a router for the page's path (`mountedAt`): it shares the
 * origin of /admin, whose sessionStorage holds a refresh token, so no script but the service's own may run there,
 * and no other site may frame it. Swagger UI's stylesheet draws its icons from data: URLs; "Try it out" calls the
 * API at the issuer. The assets come from swagger-ui-dist as files, revalidated by their ETag.
 */
export function swaggerUiRouter(mountedAt: string, issuer: string, init: () => ConstantDocument): Router {
  const policy = adminContentSecurityPolicy(['data:'], [new URL(issuer).origin]);
  const assets = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  // Without a trailing slash the page's own directory is one level up: `./docs/` leads back into the path.
  const pages = { withoutSlash: pageHtml(`./${mountedAt.split('/').at(-1)}/`), withSlash: pageHtml('./') };
  const router = express.Router();
  router.use((_req: Request, res: Response, next: () => void) => {
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });
  router.get(['/', '/index.html'], (req: Request, res: Response) => {
    const withoutSlash = req.originalUrl.split('?')[0] === mountedAt;
    res.type('text/html').send(withoutSlash ? pages.withoutSlash : pages.withSlash);
  });
  router.get('/swagger-ui-init.js', (req: Request, res: Response) => init().send(req, res));
  router.get('/:file', (req: Request, res: Response, next: () => void) => {
    const file = req.params.file as string;
    if (!ASSETS.has(file)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(assets, file));
  });
  return router;
}
