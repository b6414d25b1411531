import { Injectable, Logger } from '@nestjs/common';
import { AuditTrail } from '../../audit/index.js';
import type { Transaction } from '@file-fields/nest';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import { endpointSubjectOf, WebhookEventCatalog, type EventDataSchema } from '../events/webhook-event-catalog.js';
import { WebhookEventWriter } from '../events/webhook-event-writer.js';

/** Sent to the other endpoints when the service disables one. */
export const ENDPOINT_DISABLED_EVENT = 'webhook.endpoint.disabled';
/** Sent to the other endpoints when one has failed for WEBHOOK_WARN_AFTER, before it is disabled. */
export const ENDPOINT_FAILING_EVENT = 'webhook.endpoint.failing';

/** Why the service disabled an endpoint: it answered 410 Gone, or every delivery failed for WEBHOOK_DISABLE_AFTER. */
const DISABLE_REASONS = ['gone', 'failing'] as const;
export type DisableReason = (typeof DISABLE_REASONS)[number];

/** The audit trail's actor for what the service does on its own. */
export const SYSTEM_ACTOR = 'system';

/**
 * The URL's origin alone: its path, query and fragment may hold a token the other receivers must not see (Slack,
 * Discord and Zapier put theirs in the path).
 */
function originOf(url: string): string {
  return new URL(url).origin;
}

/** The data of webhook.endpoint.failing, as its schema describes it. */
const FAILING_DATA_SCHEMA: EventDataSchema = {
  type: 'object',
  required: ['endpoint_id', 'origin', 'since', 'disabled_at'],
  properties: {
    endpoint_id: { type: 'integer', description: 'The endpoint failing' },
    origin: {
      type: 'string',
      description: 'The origin of its URL (scheme, host, port), never its path or query, which may hold a token',
    },
    since: { type: 'string', format: 'date-time', description: 'When its deliveries started failing' },
    disabled_at: {
      type: 'string',
      format: 'date-time',
      description: 'When it will be disabled if every delivery keeps failing (since + WEBHOOK_DISABLE_AFTER)',
    },
  },
};

/**
 * Makes an endpoint's failing known before it is disabled, and its automatic disabling, so neither is silent: a
 * webhook.endpoint.failing or webhook.endpoint.disabled event to every other endpoint subscribed to it (written in
 * the transaction that recorded the failure, so both commit or neither), and once that commits, a warning in the log
 * and an event in the audit trail.
 */
@Injectable()
export class WebhookEndpointNotices {
  private readonly logger = new Logger(WebhookEndpointNotices.name);

  constructor(
    private readonly writer: WebhookEventWriter,
    private readonly trail: AuditTrail,
    catalog: WebhookEventCatalog,
  ) {
    catalog.register([
      {
        kind: ENDPOINT_FAILING_EVENT,
        description:
          'Every delivery to another webhook has failed for a while (WEBHOOK_WARN_AFTER): unless its receiver answers ' +
          'again, the service disables that webhook at disabled_at.',
        permission: 'webhook:write',
        subjectOf: endpointSubjectOf,
        dataSchema: FAILING_DATA_SCHEMA,
      },
      {
        kind: ENDPOINT_DISABLED_EVENT,
        description:
          'The service stopped sending to another webhook, because its receiver answered “410 Gone” or kept ' +
          'failing for too long. Once the receiver works again, enable that webhook and send it what it missed ' +
          '(Recover).',
        // It names another endpoint: only for endpoints whose creator may see the endpoints.
        permission: 'webhook:write',
        subjectOf: endpointSubjectOf,
        dataSchema: {
          type: 'object',
          required: ['endpoint_id', 'origin', 'reason', 'message', 'since'],
          properties: {
            endpoint_id: { type: 'integer', description: 'The endpoint disabled' },
            origin: {
              type: 'string',
              description:
                'The origin of its URL (scheme, host, port), never its path or query, which may hold a token',
            },
            reason: { type: 'string', enum: [...DISABLE_REASONS], description: '410 Gone, or failing for too long' },
            message: { type: 'string', description: 'The endpoint’s disabled_reason' },
            since: { type: 'string', format: 'date-time', description: 'When its deliveries started failing' },
          },
        },
      },
    ]);
  }

  async announce(
    tx: Pick<Transaction, 'manager' | 'afterCommit'>,
    endpoint: Pick<WebhookEndpoint, 'id' | 'url'>,
    disabled: { reason: DisableReason; message: string; since: number },
  ): Promise<void> {
    const { reason, message, since } = disabled;
    const data = { endpoint_id: endpoint.id, origin: originOf(endpoint.url), reason, message };
    await this.writer.write(
      tx.manager,
      ENDPOINT_DISABLED_EVENT,
      { ...data, since: new Date(since).toISOString() },
      { except: endpoint.id },
    );
    tx.afterCommit(async () => {
      this.logger.warn({ endpoint: endpoint.id, reason }, `Webhook endpoint ${endpoint.id} disabled: ${message}`);
      await this.trail.record({
        actor: SYSTEM_ACTOR,
        action: 'webhook-endpoint.disable',
        targetType: 'webhook-endpoint',
        targetId: endpoint.id,
        details: { reason },
      });
    });
  }

  /** Warns that the endpoint fails and will be disabled at `disableAt` unless it answers again. */
  async warnFailing(
    tx: Pick<Transaction, 'manager' | 'afterCommit'>,
    endpoint: Pick<WebhookEndpoint, 'id' | 'url'>,
    failing: { since: number; disableAt: number },
  ): Promise<void> {
    const data = {
      endpoint_id: endpoint.id,
      origin: originOf(endpoint.url),
      since: new Date(failing.since).toISOString(),
      disabled_at: new Date(failing.disableAt).toISOString(),
    };
    await this.writer.write(tx.manager, ENDPOINT_FAILING_EVENT, data, { except: endpoint.id });
    tx.afterCommit(async () => {
      this.logger.warn(
        { endpoint: endpoint.id, since: data.since, disabledAt: data.disabled_at },
        `Webhook endpoint ${endpoint.id} is failing: it will be disabled at ${data.disabled_at} unless it answers`,
      );
      await this.trail.record({
        actor: SYSTEM_ACTOR,
        action: 'webhook-endpoint.failing',
        targetType: 'webhook-endpoint',
        targetId: endpoint.id,
        details: { since: data.since, disabled_at: data.disabled_at },
      });
    });
  }
}
