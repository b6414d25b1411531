import { Inject, Injectable } from '@nestjs/common';
import type { Transaction } from '@file-fields/nest';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import { WebhookEndpointsRepository } from '../repositories/webhook-endpoints.repository.js';
import { WebhookEndpointDisabledNotice, type DisableReason } from './webhook-endpoint-disabled.js';
import { webhooksConfig, type WebhooksConfig } from '../webhooks.config.js';

/** How an attempt ended, as far as the endpoint's health is concerned. */
export interface AttemptVerdict {
  delivered: boolean;
  /** The endpoint answered 410 Gone: it asks not to be sent anything again. */
  gone: boolean;
}

export const GONE_REASON = 'The endpoint answered 410 Gone.';
export const FAILING_TOO_LONG_REASON = 'Every delivery failed for too long.';

const MESSAGES: Record<DisableReason, string> = { gone: GONE_REASON, failing: FAILING_TOO_LONG_REASON };

/**
 * Tracks since when an endpoint's deliveries have all failed, and disables it after WEBHOOK_DISABLE_AFTER of that or
 * at once on 410 Gone; a success makes it healthy again. Its later events are then kept as skipped, and the other
 * endpoints are told (webhook.endpoint.disabled).
 */
@Injectable()
export class WebhookEndpointHealth {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly disabled: WebhookEndpointDisabledNotice,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
  ) {}

  /**
   * Runs in the transaction that stores the attempt, so health and the attempt log never disagree. The given endpoint
   * is updated too, so a later attempt read from the same copy (the dispatcher keeps one per claim) sees it.
   */
  async afterAttempt(
    endpoint: WebhookEndpoint,
    verdict: AttemptVerdict,
    now: number,
    tx: Pick<Transaction, 'manager' | 'afterCommit'>,
  ): Promise<void> {
    if (verdict.delivered) {
      await this.endpoints.markHealthy(endpoint.id, tx.manager);
      endpoint.failingSince = null;
      return;
    }
    const failingSince = endpoint.failingSince ?? now;
    const failingTooLong = now - failingSince >= this.config.disableAfterMs;
    const reason: DisableReason | undefined = verdict.gone ? 'gone' : failingTooLong ? 'failing' : undefined;
    const message = reason && MESSAGES[reason];
    const disabledNow = await this.endpoints.markFailing(endpoint.id, failingSince, message, tx.manager);
    endpoint.failingSince = failingSince;
    if (message !== undefined) Object.assign(endpoint, { active: false, disabledReason: message });
    // Only the attempt that disabled it tells: attempts ending after it, here or elsewhere, find it disabled already.
    if (disabledNow && reason && message)
      await this.disabled.announce(tx, endpoint, { reason, message, since: failingSince });
  }
}
