import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import type { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import type { WebhookEvent } from './entities/webhook-event.entity.js';
import { WebhookSender, type SendResult } from './webhook-sender.js';
import { signatureHeader } from './webhook-signer.js';

/** Builds the JSON body of an event for one endpoint, signs it with the endpoint's secrets, and sends it. */
@Injectable()
export class WebhookDeliverySender {
  constructor(
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
  ) {}

  send(endpoint: WebhookEndpoint, event: WebhookEvent): Promise<SendResult> {
    const timestamp = Math.floor(this.clock.nowMs() / 1000);
    const body = JSON.stringify({
      id: event.id,
      event: event.kind,
      created_at: new Date(event.createdAt).toISOString(),
      timestamp,
      data: event.data,
    });
    return this.sender.send(endpoint.url, body, {
      'Content-Type': 'application/json',
      'X-Signature': signatureHeader(body, this.signingSecrets(endpoint)),
      'X-Webhook-Id': event.id,
      'X-Webhook-Event': event.kind,
      'X-Webhook-Timestamp': String(timestamp),
    });
  }

  /** The current secret, and the previous one while its grace period lasts, so receivers can switch at leisure. */
  private signingSecrets(endpoint: WebhookEndpoint): string[] {
    const { secret, previousSecret, previousSecretExpiresAt } = endpoint;
    const previousValid = previousSecret !== null && (previousSecretExpiresAt ?? 0) > this.clock.nowMs();
    return previousValid ? [secret, previousSecret] : [secret];
  }
}
