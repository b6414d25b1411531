import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { WEBHOOK_RANDOM, WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookEvents } from './webhook-events.service.js';
import { WebhookFileEvents } from './webhook-file-events.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookUrlPolicy } from './webhook-url-policy.js';
import { webhooksSchema } from './webhooks.schema.js';
import { WebhooksController } from './webhooks.controller.js';

/** Signed, retried, durable webhook delivery (outbox, leased dispatcher, admin API). */
@Module({
  imports: [DatabaseModule.forFeature(webhooksSchema)],
  controllers: [WebhooksController],
  providers: [
    { provide: WEBHOOK_RANDOM, useValue: Math.random },
    WebhookSender,
    WebhookDispatcher,
    WebhookEvents,
    WebhookUrlPolicy,
    WebhookEndpointsService,
    WebhookFileEvents,
  ],
  exports: [WebhookFileEvents],
})
export class WebhooksModule {}
