import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { AuditModule } from '../audit/index.js';
import { DatabaseModule } from '../database/database.module.js';
import { FileFieldRegistry } from '../files/index.js';
import { SecretsModule } from '../secrets/index.js';
import { TokenModule } from '../token/index.js';
import { WebhookAttemptsRepository } from './repositories/webhook-attempts.repository.js';
import { WebhookDeliveriesRepository } from './repositories/webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from './repositories/webhook-endpoints.repository.js';
import { WebhookEventsRepository } from './repositories/webhook-events.repository.js';
import { WEBHOOK_RANDOM, WebhookAttemptRecorder } from './webhook-attempt-recorder.js';
import { WebhookRetention } from './webhook-retention.js';
import { newLeaseOwner, WEBHOOK_LEASE_OWNER, WebhookDeliveryClaimer } from './webhook-delivery-claimer.js';
import { WebhookDeliverySender } from './webhook-delivery-sender.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookEndpointAccess } from './webhook-endpoint-access.js';
import { WebhookEndpointDisabledNotice } from './webhook-endpoint-disabled.js';
import { WebhookEndpointHealth } from './webhook-endpoint-health.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookEventCatalog } from './webhook-event-catalog.js';
import { WebhookEventWriter } from './webhook-event-writer.js';
import { WebhookEvents } from './webhook-events.service.js';
import { WebhookFileEvents } from './webhook-file-events.js';
import { WebhookRecovery } from './webhook-recovery.service.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookUrlPolicy } from './webhook-url-policy.js';
import { webhooksConfig } from './webhooks.config.js';
import { webhooksSchema } from './webhooks.schema.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhookDeliveryLog } from './webhook-delivery-log.js';

/** Signed, retried, durable webhook delivery (outbox, leased dispatcher, admin API). */
@Module({
  imports: [
    DatabaseModule.forFeature(webhooksSchema),
    ConfigModule.forFeature(webhooksConfig),
    AuditModule,
    SecretsModule,
    // Who may read what, for the endpoints' creators (SubjectPermissions).
    TokenModule,
  ],
  controllers: [WebhooksController],
  providers: [
    { provide: WEBHOOK_RANDOM, useValue: Math.random },
    { provide: WEBHOOK_LEASE_OWNER, useFactory: newLeaseOwner },
    WebhookEndpointsRepository,
    WebhookEventsRepository,
    WebhookDeliveriesRepository,
    WebhookAttemptsRepository,
    WebhookSender,
    WebhookDeliverySender,
    WebhookDeliveryClaimer,
    WebhookEndpointHealth,
    WebhookAttemptRecorder,
    WebhookRetention,
    WebhookDispatcher,
    WebhookEventCatalog,
    WebhookEvents,
    WebhookUrlPolicy,
    WebhookEndpointsService,
    WebhookEndpointAccess,
    WebhookDeliveryLog,
    WebhookFileEvents,
    WebhookEventWriter,
    WebhookEndpointDisabledNotice,
    WebhookRecovery,
    // The attachment types, for the endpoints' filters: read from the entities, as the file-field framework does.
    FileFieldRegistry,
  ],
  exports: [WebhookFileEvents, WebhookEventCatalog],
})
export class WebhooksModule {}
