/**
 * The WebhooksModule's public surface: everything another module uses comes from here.
 */
export { WebhooksModule } from './webhooks.module.js';
// What the background jobs run: the poll for due deliveries, and the retention sweep.
export { WebhookDispatcher } from './delivery/webhook-dispatcher.js';
export { WebhookRetention } from './recovery/webhook-retention.js';
export { WebhookFileEvents } from './events/webhook-file-events.js';
export { WebhookEventCatalog } from './events/webhook-event-catalog.js';
export { documentWebhookEvents } from './events/webhook-events.openapi.js';
export { webhooksConfig, type WebhooksConfig } from './webhooks.config.js';
