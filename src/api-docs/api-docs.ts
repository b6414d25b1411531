import type { Express, Request, Response } from 'express';
import { CommittedOpenApi } from './committed-document.js';
import { swaggerUiRouter } from './swagger-ui-page.js';

const API_DOCS_PATH = '/api/docs';

/**
 * The API document at /api/docs-json and /api/docs-yaml and Swagger UI at /api/docs, all from the committed
 * openapi.json (see CommittedOpenApi): routes of their own, which no other request runs.
 */
export function serveApiDocs(app: Express, issuer: string, document = new CommittedOpenApi()): void {
  app.use(
    API_DOCS_PATH,
    swaggerUiRouter(API_DOCS_PATH, issuer, () => document.swaggerUiInit()),
  );
  app.get(`${API_DOCS_PATH}-json`, (req: Request, res: Response) => document.asJson().send(req, res));
  app.get(`${API_DOCS_PATH}-yaml`, (req: Request, res: Response, next: (error: unknown) => void) => {
    document.asYaml().then((yaml) => yaml.send(req, res), next);
  });
}
