import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { WebhookEvent } from './entities/webhook-event.entity.js';

/** Entities of the WebhooksModule (listed in src/database/entities.ts). */
export const webhookEntities: Function[] = [WebhookEndpoint, WebhookEvent, WebhookDelivery, WebhookAttempt];
