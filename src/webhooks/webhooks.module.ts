import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WEBHOOK_RANDOM, WebhookDispatcher } from './webhook-dispatcher.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookEvents } from './webhook-events.service.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhookUrlPolicy } from './webhook-url-policy.js';
import { webhookEntities } from './webhook.entities.js';
import { WebhooksController } from './webhooks.controller.js';

/** Signed, retried, durable webhook delivery (outbox, leased dispatcher, admin API). */
@Module({
  imports: [TypeOrmModule.forFeature(webhookEntities)],
  controllers: [WebhooksController],
  providers: [
    { provide: WEBHOOK_RANDOM, useValue: Math.random },
    WebhookSender,
    WebhookDispatcher,
    WebhookEvents,
    WebhookUrlPolicy,
    WebhookEndpointsService,
  ],
  exports: [WebhookEvents],
})
export class WebhooksModule {}
