import { Module } from '@nestjs/common';
import { SettingsModule } from '../config/config.module.js';
import { AuditModule } from '../audit/index.js';
import { DatabaseModule } from '../database/database.module.js';
import { FileFieldRegistry } from '@file-fields/nest';
import { SecretsModule } from '../secrets/index.js';
import { TokenModule } from '../token/index.js';
import { WebhookAttemptsRepository } from './repositories/webhook-attempts.repository.js';
import { WebhookDeliveriesRepository } from './repositories/webhook-deliveries.repository.js';
import { WebhookDeliveryLeasesRepository } from './repositories/webhook-delivery-leases.repository.js';
import { WebhookEndpointsRepository } from './repositories/webhook-endpoints.repository.js';
import { WebhookEventsRepository } from './repositories/webhook-events.repository.js';
import { WEBHOOK_RANDOM, WebhookAttemptRecorder } from './delivery/webhook-attempt-recorder.js';
import { WebhookRetention } from './recovery/webhook-retention.js';
import { newLeaseOwner, WEBHOOK_LEASE_OWNER, WebhookDeliveryClaimer } from './delivery/webhook-delivery-claimer.js';
import { WebhookDeliverySender } from './sending/webhook-delivery-sender.js';
import { WebhookClaimReader } from './delivery/webhook-claim-reader.js';
import { WebhookDispatcher } from './delivery/webhook-dispatcher.js';
import { WebhookEndpointAccess } from './endpoints/webhook-endpoint-access.js';
import { WebhookEndpointNotices } from './delivery/webhook-endpoint-notices.js';
import { WebhookEndpointHealth } from './delivery/webhook-endpoint-health.js';
import { WebhookEndpointsService } from './endpoints/webhook-endpoints.service.js';
import { WebhookEventCatalog } from './events/webhook-event-catalog.js';
import { WebhookEventWriter } from './events/webhook-event-writer.js';
import { WebhookEvents } from './events/webhook-events.service.js';
import { WebhookFileEvents } from './events/webhook-file-events.js';
import { WebhookRecovery } from './recovery/webhook-recovery.service.js';
import { WebhookEndpointProbe } from './recovery/webhook-endpoint-probe.js';
import { WebhookSender } from './sending/webhook-sender.js';
import { WebhookUrlPolicy } from './endpoints/webhook-url-policy.js';
import { webhooksConfig } from './webhooks.config.js';
import { webhooksSchema } from './webhooks.schema.js';
import { WebhookEndpointsController } from './endpoints/webhook-endpoints.controller.js';
import { WebhookDeliveriesController } from './recovery/webhook-deliveries.controller.js';
import { WebhookDeliveryLog } from './recovery/webhook-delivery-log.js';
import { WebhookEndpointViews } from './endpoints/webhook-endpoint-views.js';
import { WebhookEndpointListRepository } from './repositories/webhook-endpoint-list.repository.js';
import { WebhookSigningKeys } from './signing-keys/webhook-signing-keys.js';
import { WebhookSigningKeysController } from './signing-keys/webhook-signing-keys.controller.js';

/** Signed, retried, durable webhook delivery (outbox, leased dispatcher, admin API). */
@Module({
  imports: [
    DatabaseModule.forFeature(webhooksSchema),
    SettingsModule.forFeature(webhooksConfig),
    AuditModule,
    SecretsModule,
    // Who may read what, for the endpoints' creators (SubjectPermissions).
    TokenModule,
  ],
  // In this order: the endpoint routes (with `event-types` before `:id`), then those of their deliveries.
  // `signing-keys` before the endpoints' `:id`, which would take it for an id.
  controllers: [WebhookSigningKeysController, WebhookEndpointsController, WebhookDeliveriesController],
  providers: [
    { provide: WEBHOOK_RANDOM, useValue: Math.random },
    { provide: WEBHOOK_LEASE_OWNER, useFactory: newLeaseOwner },
    WebhookEndpointsRepository,
    WebhookEndpointListRepository,
    WebhookEventsRepository,
    WebhookDeliveriesRepository,
    WebhookDeliveryLeasesRepository,
    WebhookAttemptsRepository,
    WebhookSender,
    WebhookDeliverySender,
    WebhookDeliveryClaimer,
    WebhookEndpointHealth,
    WebhookAttemptRecorder,
    WebhookRetention,
    WebhookClaimReader,
    WebhookDispatcher,
    WebhookEventCatalog,
    WebhookEvents,
    WebhookUrlPolicy,
    WebhookEndpointsService,
    WebhookEndpointViews,
    WebhookEndpointAccess,
    WebhookDeliveryLog,
    WebhookFileEvents,
    WebhookEventWriter,
    WebhookEndpointNotices,
    WebhookRecovery,
    WebhookEndpointProbe,
    WebhookSigningKeys,
    // The attachment types, for the endpoints' filters: read from the entities, as the file-field framework does.
    FileFieldRegistry,
  ],
  exports: [WebhookFileEvents, WebhookEventCatalog, WebhookSigningKeys],
})
export class WebhooksModule {}
