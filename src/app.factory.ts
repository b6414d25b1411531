import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { serveAdminUi } from './admin-ui/admin-ui.js';
import { AppModule } from './app.module.js';
import { applyHttpLimits, useSafeResponseDefaults } from './common/http/http-limits.js';
import { buildOpenApiDocument } from './common/openapi/openapi-document.js';
import { AppConfig } from './config/environment.js';
import { documentFileFields, FileFieldRegistry, filesConfig, type FilesConfig } from './files/index.js';
import { OAUTH_TOKEN_PATH, tokenConfig, type TokenConfig } from './token/index.js';
import { documentWebhookEvents, WebhookEventCatalog } from './webhooks/index.js';

/** Builds the application exactly as it runs in production; tests use the same factory. */
export async function createApp(): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.enableShutdownHooks();
  const config = app.get(AppConfig);
  // Behind a proxy, the client's address (limits, logs) comes from X-Forwarded-For, from trusted proxies only.
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  applyHttpLimits(app, config.http);
  useSafeResponseDefaults(app);
  setupOpenApi(app);
  serveAdminUi(app, app.get<FilesConfig>(filesConfig.KEY));
  return app;
}

/**
 * The OpenAPI document at /api/docs-json and Swagger UI at /api/docs. Built once, on the first request for it: the
 * file fields' part needs the entity registry, which is filled when the application initialises (and the webhook
 * events' part the event catalog, filled by the publishers as they are built).
 */
function setupOpenApi(app: INestApplication): void {
  const { issuer } = app.get<TokenConfig>(tokenConfig.KEY);
  const build = () => {
    const document = buildOpenApiDocument(app, { serverUrl: issuer, tokenUrl: OAUTH_TOKEN_PATH });
    documentFileFields(document, app.get(FileFieldRegistry));
    documentWebhookEvents(document, app.get(WebhookEventCatalog));
    return document;
  };
  SwaggerModule.setup('api/docs', app, build, { jsonDocumentUrl: 'api/docs-json' });
}
