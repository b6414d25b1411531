import { Injectable } from '@nestjs/common';
import { Clock } from '@file-fields/nest';
import { AppConfig } from '../../config/environment.js';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import type { WebhookEvent } from '../entities/webhook-event.entity.js';
import { WebhookEventCatalog, type ObjectReference } from '../events/webhook-event-catalog.js';
import { WebhookSigningKeys } from '../signing-keys/webhook-signing-keys.js';
import { WebhookSender, type SendResult } from './webhook-sender.js';
import { signatureHeaders, type SigningKey } from './webhook-signer.js';

/** A reference in a thin payload: what it is, and the URL the receiver reads its current state at. */
interface ThinReference {
  type: string;
  id: number;
  url?: string;
}

/** Builds the JSON body of an event for one endpoint, signs it in the endpoint's scheme(s), and sends it. */
@Injectable()
export class WebhookDeliverySender {
  constructor(
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    private readonly asymmetricKeys: WebhookSigningKeys,
    private readonly catalog: WebhookEventCatalog,
    private readonly app: AppConfig,
  ) {}

  send(endpoint: WebhookEndpoint, event: WebhookEvent): Promise<SendResult> {
    const timestamp = Math.floor(this.clock.nowMs() / 1000);
    const body = JSON.stringify({
      id: event.id,
      event: event.kind,
      created_at: new Date(event.createdAt).toISOString(),
      timestamp,
      ...(endpoint.payload === 'thin' ? this.thin(event) : { data: event.data }),
    });
    return this.sender.send(endpoint.url, body, {
      'Content-Type': 'application/json',
      'X-Webhook-Id': event.id,
      'X-Webhook-Event': event.kind,
      'X-Webhook-Timestamp': String(timestamp),
      ...signatureHeaders({ id: event.id, timestamp, body }, this.signingKeys(endpoint), () =>
        this.asymmetricKeys.current(),
      ),
    });
  }

  /**
   * A thin payload: the object the event is about (and the item it belongs to), each with the URL its current state
   * is read at with the receiver's own token; nothing of the data, which may be stale or more than it may read.
   */
  private thin(event: WebhookEvent): { object: ThinReference | null; entity?: ThinReference } {
    const subject = this.catalog.subjectOf(event.kind, event.data);
    if (!subject) return { object: null };
    return {
      object: this.reference(subject.object),
      ...(subject.entity ? { entity: this.reference(subject.entity) } : {}),
    };
  }

  private reference({ type, id, path }: ObjectReference): ThinReference {
    return { type, id, ...(path === undefined ? {} : { url: `${this.app.issuer}${path}` }) };
  }

  /** The previous secret while its grace period lasts, then the current one, so receivers can switch at leisure. */
  private signingKeys(endpoint: WebhookEndpoint): SigningKey[] {
    const { secret, signatureScheme, previousSecret, previousSecretExpiresAt, previousSignatureScheme } = endpoint;
    const current = { scheme: signatureScheme, secret };
    if (previousSecret === null || (previousSecretExpiresAt ?? 0) <= this.clock.nowMs()) return [current];
    return [{ scheme: previousSignatureScheme ?? signatureScheme, secret: previousSecret }, current];
  }
}
