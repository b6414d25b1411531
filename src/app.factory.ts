import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { dump } from 'js-yaml';
import { Logger } from 'nestjs-pino';
import { serveAdminUi } from './admin-ui/admin-ui.js';
import { AppModule } from './app.module.js';
import { applyHttpLimits, useSafeResponseDefaults } from './common/http/http-limits.js';
import { FrameworkNarrationAtDebug } from './common/log-output.js';
import { buildOpenApiDocument } from './common/openapi/openapi-document.js';
import { serveSwaggerUiPage } from './common/openapi/swagger-ui-page.js';
import { AppConfig } from './config/environment.js';
import { documentFileFields, FileFieldRegistry, filesConfig, type FilesConfig } from './files/index.js';
import { OAUTH_TOKEN_PATH, tokenConfig, type TokenConfig } from './token/index.js';
import { documentWebhookEvents, WebhookEventCatalog } from './webhooks/index.js';

/**
 * Builds the application exactly as it runs in production; tests use the same factory. Signals are the process's
 * business: main.ts stops the application on them.
 */
export async function createApp(): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bufferLogs: true,
    // JSON and form bodies are read after authentication, by BodyParsingGuard.
    bodyParser: false,
  });
  app.useLogger(new FrameworkNarrationAtDebug(app.get(Logger)));
  app.disable('x-powered-by');
  const config = app.get(AppConfig);
  // Behind a proxy, the client's address (limits, logs) comes from X-Forwarded-For, from trusted proxies only.
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  applyHttpLimits(app, config.http);
  useSafeResponseDefaults(app);
  setupOpenApi(app);
  serveAdminUi(app, app.get<FilesConfig>(filesConfig.KEY), app.get<TokenConfig>(tokenConfig.KEY).issuer);
  return app;
}

/**
 * The OpenAPI document at /api/docs-json (and /api/docs-yaml) and Swagger UI at /api/docs (under the administration
 * UI's Content-Security-Policy: see serveSwaggerUiPage). Built once, on the first request for any of them: the file
 * fields' part needs the entity registry, which is filled when the application initialises (and the webhook events'
 * part the event catalog, filled by the publishers as they are built).
 *
 * The two documents are also serialized once: SwaggerModule's own routes serialize on every request, about 1 ms of
 * CPU for the JSON and 10 ms for the YAML (a public route that about 100 requests a second would keep busy).
 */
function setupOpenApi(app: NestExpressApplication): void {
  const { issuer } = app.get<TokenConfig>(tokenConfig.KEY);
  let document: OpenAPIObject | undefined;
  const built = () => {
    if (document) return document;
    document = buildOpenApiDocument(app, { tokenUrl: OAUTH_TOKEN_PATH });
    documentFileFields(document, app.get(FileFieldRegistry));
    documentWebhookEvents(document, app.get(WebhookEventCatalog));
    return document;
  };
  serveSwaggerUiPage(app, '/api/docs', issuer);
  // BaseLayout: without the top bar, whose logo brings an inline <style> the page's policy refuses (and a URL field).
  SwaggerModule.setup('api/docs', app, built, { raw: false, swaggerOptions: { layout: 'BaseLayout' } });
  let json: string | undefined;
  let yaml: string | undefined;
  const express = app.getHttpAdapter().getInstance();
  express.get('/api/docs-json', (_req, res) => {
    res.type('application/json').send((json ??= JSON.stringify(built())));
  });
  express.get('/api/docs-yaml', (_req, res) => {
    res.type('text/yaml').send((yaml ??= dump(built(), { skipInvalid: true, noRefs: true })));
  });
}
