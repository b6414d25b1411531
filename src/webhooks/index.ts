/**
 * The WebhooksModule's public surface: everything another module uses comes from here.
 */
export { WebhooksModule } from './webhooks.module.js';
export { WebhookFileEvents } from './webhook-file-events.js';
export { WebhookEventCatalog } from './webhook-event-catalog.js';
export { documentWebhookEvents } from './webhook-events.openapi.js';
export { webhooksConfig, type WebhooksConfig } from './webhooks.config.js';
export { verifyWebhookSignature, type VerifyOptions, type VerifyResult } from './verify-webhook-signature.js';
