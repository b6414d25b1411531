import { Injectable } from '@nestjs/common';
import { Clock } from '@file-fields/nest';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import type { WebhookEvent } from '../entities/webhook-event.entity.js';
import { WebhookSender, type SendResult } from './webhook-sender.js';
import { signatureHeaders, type SigningKey } from './webhook-signer.js';

/** Builds the JSON body of an event for one endpoint, signs it in the endpoint's scheme(s), and sends it. */
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
      'X-Webhook-Id': event.id,
      'X-Webhook-Event': event.kind,
      'X-Webhook-Timestamp': String(timestamp),
      ...signatureHeaders({ id: event.id, timestamp, body }, this.signingKeys(endpoint)),
    });
  }

  /** The previous secret while its grace period lasts, then the current one, so receivers can switch at leisure. */
  private signingKeys(endpoint: WebhookEndpoint): SigningKey[] {
    const { secret, signatureScheme, previousSecret, previousSecretExpiresAt, previousSignatureScheme } = endpoint;
    const current = { scheme: signatureScheme, secret };
    if (previousSecret === null || (previousSecretExpiresAt ?? 0) <= this.clock.nowMs()) return [current];
    return [{ scheme: previousSignatureScheme ?? signatureScheme, secret: previousSecret }, current];
  }
}
