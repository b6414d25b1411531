import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { WebhookEndpointsRepository } from './repositories/webhook-endpoints.repository.js';
import { webhooksConfig, type WebhooksConfig } from './webhooks.config.js';

/** How an attempt ended, as far as the endpoint's health is concerned. */
export interface AttemptVerdict {
  delivered: boolean;
  /** The endpoint answered 410 Gone: it asks not to be sent anything again. */
  gone: boolean;
}

export const GONE_REASON = 'The endpoint answered 410 Gone.';
export const FAILING_TOO_LONG_REASON = 'Every delivery failed for too long.';

/**
 * Tracks since when an endpoint's deliveries have all failed, and disables it after WEBHOOK_DISABLE_AFTER of that or
 * at once on 410 Gone; a success makes it healthy again. Its later events are then kept as skipped.
 */
@Injectable()
export class WebhookEndpointHealth {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
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
    manager: EntityManager,
  ): Promise<void> {
    if (verdict.delivered) {
      await this.endpoints.markHealthy(endpoint.id, manager);
      endpoint.failingSince = null;
      return;
    }
    const failingSince = endpoint.failingSince ?? now;
    const failingTooLong = now - failingSince >= this.config.disableAfterMs;
    const disabledReason = verdict.gone ? GONE_REASON : failingTooLong ? FAILING_TOO_LONG_REASON : undefined;
    await this.endpoints.markFailing(endpoint.id, failingSince, disabledReason, manager);
    endpoint.failingSince = failingSince;
    if (disabledReason !== undefined) Object.assign(endpoint, { active: false, disabledReason });
  }
}
