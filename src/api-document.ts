import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { buildOpenApiDocument } from './common/openapi/openapi-document.js';
import { documentFileFields, FileFieldRegistry } from '@file-fields/nest';
import { OAUTH_TOKEN_PATH } from './token/index.js';
import { documentWebhookEvents, WebhookEventCatalog } from './webhooks/index.js';

/**
 * The API document as the code declares it, from an initialised application: its controllers' operations, the file
 * fields (from the entity registry) and the webhook events (from the event catalog). Written to openapi.json, which
 * is what the service serves (see CommittedOpenApi): the platform suite generates it, compares it with the
 * committed file, and rewrites that with UPDATE_OPENAPI=1. @nestjs/swagger builds documents here only.
 */
export function generateApiDocument(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app, { tokenUrl: OAUTH_TOKEN_PATH });
  documentFileFields(document, app.get(FileFieldRegistry));
  documentWebhookEvents(document, app.get(WebhookEventCatalog));
  return document;
}
