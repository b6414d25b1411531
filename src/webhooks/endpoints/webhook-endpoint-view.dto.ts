import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import type { LastDelivery } from '../repositories/webhook-endpoint-list.repository.js';
import type { SignatureScheme } from '../sending/webhook-signer.js';
import type { Ordering, Payload } from '../entities/webhook-endpoint.entity.js';
import { hasSharedSecret } from '../sending/webhook-signer.js';
import {
  AUTO_RECOVER_PROPERTY,
  ORDERING_PROPERTY,
  PAYLOAD_PROPERTY,
  RATE_LIMIT_PROPERTY,
  SIGNATURE_SCHEME_PROPERTY,
  WebhookFilterDto,
} from './webhook-endpoints.dto.js';

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** How the latest delivery that ended went. */
@ApiSchema({ name: 'WebhookLastDelivery' })
export class WebhookLastDeliveryDto {
  @ApiProperty({
    enum: ['succeeded', 'failed'],
    description: 'succeeded: the receiver answered 2xx; failed: every attempt failed (retries included)',
  })
  status!: 'succeeded' | 'failed';
  @ApiProperty({ format: 'date-time', description: 'When it ended' }) at!: string;
}

/** An endpoint with what its list and page show of its health. */
export interface WebhookEndpointView {
  endpoint: WebhookEndpoint;
  lastDelivery: LastDelivery | null;
}

/** A webhook endpoint as the API shows it: its signing `secret` only right after registration or rotation. */
@ApiSchema({ name: 'WebhookEndpoint' })
export class WebhookEndpointDto {
  @ApiProperty({ type: 'integer', example: 1 }) id!: number;
  @ApiProperty({ example: 'https://example.org/hooks/files' }) url!: string;
  @ApiProperty(SIGNATURE_SCHEME_PROPERTY) signature_scheme!: SignatureScheme;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'End of the grace period of the last rotation: until then the previous secret signs too (in the past once it ' +
      'is over; null before any rotation)',
  })
  previous_secret_expires_at!: string | null;
  @ApiProperty({ example: ['file.created', 'file.deleted'], description: 'Event kinds, or `*` for all' })
  events!: string[];
  @ApiProperty(ORDERING_PROPERTY) ordering!: Ordering;
  @ApiProperty(PAYLOAD_PROPERTY) payload!: Payload;
  @ApiProperty(RATE_LIMIT_PROPERTY) rate_limit!: number | null;
  @ApiProperty(AUTO_RECOVER_PROPERTY) auto_recover!: boolean;
  @ApiProperty({ type: WebhookFilterDto, nullable: true, description: 'null: every event of those kinds' })
  filter!: WebhookFilterDto | null;
  @ApiProperty({ type: String, nullable: true, example: 'ERP file sync' }) description!: string | null;
  @ApiProperty({ example: true, description: 'false: nothing is sent to it (disabled by hand or after failing)' })
  active!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'The endpoint answered 410 Gone.',
    description: 'Why the service disabled it (410 Gone, failing for too long); null otherwise',
  })
  disabled_reason!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'Since when its deliveries have been failing, with no success since (retries may still be under way); null ' +
      'while healthy',
  })
  failing_since!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'When it was reported failing (after WEBHOOK_WARN_AFTER of failures: a webhook.endpoint.failing event and an ' +
      'audit entry), before it is disabled after WEBHOOK_DISABLE_AFTER; null while healthy',
  })
  warned_at!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When a disabled endpoint with auto_recover is probed next; null otherwise',
  })
  next_probe_at!: string | null;
  @ApiProperty({
    type: WebhookLastDeliveryDto,
    nullable: true,
    description:
      'The newest delivery that ended (succeeded, or failed for good); null before any. Deliveries still retrying ' +
      'show in failing_since',
  })
  last_delivery!: WebhookLastDeliveryDto | null;
  @ApiPropertyOptional({
    example: 'ffwh_wjpmdP1DKbOC9dn09FFIyfnQ2daAbHFFdmoeAUnO6U0',
    description:
      'The signing secret, only in the answer to registration and to rotation. `ffwh_…` (github scheme): the whole ' +
      'string is the HMAC key. `whsec_<base64>` (standard schemes): the key is the base64-decoded rest. Never for ' +
      'standard-v1a, which has none',
  })
  secret?: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  static from({ endpoint, lastDelivery }: WebhookEndpointView, withSecret = false): WebhookEndpointDto {
    const last = lastDelivery && { status: lastDelivery.status, at: new Date(lastDelivery.at).toISOString() };
    return Object.assign(new WebhookEndpointDto(), {
      id: endpoint.id,
      url: endpoint.url,
      signature_scheme: endpoint.signatureScheme,
      previous_secret_expires_at: isoOrNull(endpoint.previousSecretExpiresAt),
      events: endpoint.events,
      ordering: endpoint.ordering,
      payload: endpoint.payload,
      rate_limit: endpoint.rateLimit,
      auto_recover: endpoint.autoRecover,
      filter: endpoint.filter && Object.assign(new WebhookFilterDto(), endpoint.filter),
      description: endpoint.description,
      active: endpoint.active,
      disabled_reason: endpoint.disabledReason,
      failing_since: isoOrNull(endpoint.failingSince),
      warned_at: isoOrNull(endpoint.warnedAt),
      next_probe_at: isoOrNull(endpoint.nextProbeAt),
      last_delivery: last && Object.assign(new WebhookLastDeliveryDto(), last),
      ...(withSecret && hasSharedSecret(endpoint.signatureScheme) ? { secret: endpoint.secret } : {}),
      created_at: endpoint.createdAt.toISOString(),
      updated_at: endpoint.updatedAt.toISOString(),
    });
  }
}

/** The answer to a ping: the id of the queued webhook.ping event. */
@ApiSchema({ name: 'WebhookPing' })
export class WebhookPingDto {
  @ApiProperty({ example: 'evt_2f1c9a7e-0b4e-4a4f-9c55-0d0e3b1d2a11' }) event_id!: string;

  static from(ping: { event_id: string }): WebhookPingDto {
    return Object.assign(new WebhookPingDto(), { event_id: ping.event_id });
  }
}
