import { Inject, Injectable } from '@nestjs/common';
import type { Transaction } from '@file-fields/nest';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import { WebhookEndpointsRepository } from '../repositories/webhook-endpoints.repository.js';
import { WebhookEndpointNotices, type DisableReason } from './webhook-endpoint-notices.js';
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
 * Tracks since when an endpoint's deliveries have all failed: warns after WEBHOOK_WARN_AFTER of that
 * (webhook.endpoint.failing), and disables it after WEBHOOK_DISABLE_AFTER, at an attempt after the warning (however
 * the attempts fall), or at once on 410 Gone; a success makes it
 * healthy again. A disabled endpoint's later events are kept as skipped, the other endpoints are told
 * (webhook.endpoint.disabled), and one that recovers by itself is probed from WEBHOOK_PROBE_INTERVAL on.
 */
@Injectable()
export class WebhookEndpointHealth {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly notices: WebhookEndpointNotices,
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
      Object.assign(endpoint, { failingSince: null, warnedAt: null });
      return;
    }
    const failingSince = endpoint.failingSince ?? now;
    // Never disabled for failing before its owner was warned (410 Gone asks for it at once).
    const failingTooLong = now - failingSince >= this.config.disableAfterMs && endpoint.warnedAt !== null;
    const reason: DisableReason | undefined = verdict.gone ? 'gone' : failingTooLong ? 'failing' : undefined;
    const message = reason && MESSAGES[reason];
    const nextProbeAt = endpoint.autoRecover ? now + this.config.probeIntervalMs : null;
    const disabled = message === undefined ? undefined : { reason: message, nextProbeAt };
    const disabledNow = await this.endpoints.markFailing(endpoint.id, failingSince, disabled, tx.manager);
    endpoint.failingSince = failingSince;
    if (message !== undefined) Object.assign(endpoint, { active: false, disabledReason: message, nextProbeAt });
    // Only the attempt that disabled it tells: attempts ending after it, here or elsewhere, find it disabled already.
    if (disabledNow && reason && message)
      await this.notices.announce(tx, endpoint, { reason, message, since: failingSince });
    // Due at WEBHOOK_DISABLE_AFTER at the latest, should that be the shorter.
    const warnAfter = Math.min(this.config.warnAfterMs, this.config.disableAfterMs);
    if (!disabledNow && message === undefined && now - failingSince >= warnAfter) await this.warn(endpoint, now, tx);
  }

  /** Warns once per failing spell: the attempt that marks it warned tells, here or on another instance. */
  private async warn(
    endpoint: WebhookEndpoint,
    now: number,
    tx: Pick<Transaction, 'manager' | 'afterCommit'>,
  ): Promise<void> {
    if (endpoint.warnedAt !== null || endpoint.failingSince === null) return;
    if (!(await this.endpoints.markWarned(endpoint.id, now, tx.manager))) return;
    endpoint.warnedAt = now;
    const since = endpoint.failingSince;
    await this.notices.warnFailing(tx, endpoint, { since, disableAt: since + this.config.disableAfterMs });
  }
}
