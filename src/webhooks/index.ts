/**
 * The WebhooksModule's public surface: everything another module uses comes from here.
 */
export { WebhooksModule } from './webhooks.module.js';
// What the background jobs run: the poll for due deliveries, the retention sweep, and the probes of disabled endpoints.
export { WebhookDispatcher } from './delivery/webhook-dispatcher.js';
export { WebhookRetention } from './recovery/webhook-retention.js';
export { WebhookEndpointProbe } from './recovery/webhook-endpoint-probe.js';
export { WebhookFileEvents } from './events/webhook-file-events.js';
export { WebhookEventCatalog } from './events/webhook-event-catalog.js';
export { documentWebhookEvents } from './events/webhook-events.openapi.js';
export { webhooksConfig, type WebhooksConfig } from './webhooks.config.js';
// The `v1a` keys: reloaded (and rotated on schedule) by a background job, rotated on demand by the command line.
export { WebhookSigningKeys } from './signing-keys/webhook-signing-keys.js';
