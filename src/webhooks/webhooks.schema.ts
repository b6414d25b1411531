import type { FeatureSchema } from '@file-fields/nest';
import { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { WebhookEvent } from './entities/webhook-event.entity.js';
import { Webhooks1763800002000 } from './migrations/1763800002000-webhooks.js';
import { EncryptWebhookSecrets1763800006100 } from './migrations/1763800006100-encrypt-webhook-secrets.js';
import { WebhookSignatureScheme1763800008000 } from './migrations/1763800008000-webhook-signature-scheme.js';
import { WebhookRecoveryAndFilters1763800008500 } from './migrations/1763800008500-webhook-recovery-and-filters.js';
import { WebhookEndpointCreator1763800010100 } from './migrations/1763800010100-webhook-endpoint-creator.js';
import { WebhookDeliveryModes1763800018100 } from './migrations/1763800018100-webhook-delivery-modes.js';

/** The WebhooksModule's tables and the migrations that make them. */
export const webhooksSchema: FeatureSchema = {
  entities: [WebhookEndpoint, WebhookEvent, WebhookDelivery, WebhookAttempt],
  migrations: [
    Webhooks1763800002000,
    EncryptWebhookSecrets1763800006100,
    WebhookSignatureScheme1763800008000,
    WebhookRecoveryAndFilters1763800008500,
    WebhookEndpointCreator1763800010100,
    WebhookDeliveryModes1763800018100,
  ],
};
