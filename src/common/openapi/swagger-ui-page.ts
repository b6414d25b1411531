import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { adminContentSecurityPolicy } from '../../admin-ui/admin-ui.js';
import { FAVICON_PATH } from '../../admin-ui/favicon.js';

/**
 * Swagger UI's page with no inline script or style: swagger-ui-dist's own stylesheets and scripts and
 * @nestjs/swagger's swagger-ui-init.js, all files served beside it. `base` leads from the page's URL to them.
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
 * Swagger UI at `path` under the administration UI's headers: it shares the origin of /admin, whose sessionStorage
 * holds a refresh token, so no script but the service's own may run there, and no other site may frame it. The page
 * of @nestjs/swagger has inline styles a strict policy refuses: this one, registered first, replaces it (the
 * assets and swagger-ui-init.js stay SwaggerModule's). Swagger UI's stylesheet draws its icons from data: URLs;
 * "Try it out" calls the API at the issuer.
 */
export function serveSwaggerUiPage(app: NestExpressApplication, path: string, issuer: string): void {
  const policy = adminContentSecurityPolicy(['data:'], [new URL(issuer).origin]);
  const express = app.getHttpAdapter().getInstance();
  express.use(path, (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', policy);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });
  // Without a trailing slash the page's own directory is one level up: `./docs/` leads back into `path`.
  const nested = `./${path.split('/').at(-1)}/`;
  const pages = { withoutSlash: pageHtml(nested), withSlash: pageHtml('./') };
  express.get([path, `${path}/index.html`], (req: Request, res: Response) => {
    const withoutSlash = req.path === path;
    res.type('text/html').send(withoutSlash ? pages.withoutSlash : pages.withSlash);
  });
}
