import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock, UnitOfWork } from '@file-fields/nest';
import { AuditTrail } from '../../audit/index.js';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import { WebhookEvent } from '../entities/webhook-event.entity.js';
import { WebhookDispatcher } from '../delivery/webhook-dispatcher.js';
import { SYSTEM_ACTOR } from '../delivery/webhook-endpoint-notices.js';
import { PING_EVENT } from '../events/webhook-events.service.js';
import { WebhookEndpointsRepository } from '../repositories/webhook-endpoints.repository.js';
import { WebhookDeliverySender } from '../sending/webhook-delivery-sender.js';
import { webhooksConfig, type WebhooksConfig } from '../webhooks.config.js';
import { WebhookRecovery } from './webhook-recovery.service.js';

/** Endpoints probed by one pass at most; the others are due again at the next pass. */
const PROBES_PER_PASS = 10;

/**
 * Heals endpoints that opted in (`auto_recover`): a disabled one is sent a signed webhook.ping (`probe: true`, not
 * stored) every WEBHOOK_PROBE_INTERVAL, and the first time it answers 2xx it is enabled again and what it missed
 * while failing and disabled is re-queued, as a recovery from the time it started failing. One instance probes a
 * given endpoint at a time: taking a probe moves its time forward, only if no other instance moved it first.
 */
@Injectable()
export class WebhookEndpointProbe {
  private readonly logger = new Logger(WebhookEndpointProbe.name);

  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly sender: WebhookDeliverySender,
    private readonly recovery: WebhookRecovery,
    private readonly dispatcher: WebhookDispatcher,
    private readonly unitOfWork: UnitOfWork,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
  ) {}

  /** One pass (a background job): probes the endpoints due. */
  async probeDue(): Promise<void> {
    const now = this.clock.nowMs();
    for (const endpoint of await this.endpoints.findProbeDue(now, PROBES_PER_PASS)) {
      const due = endpoint.nextProbeAt ?? now;
      if (!(await this.endpoints.takeProbe(endpoint.id, due, now + this.config.probeIntervalMs))) continue;
      const result = await this.sender.send({ ...endpoint, active: true }, this.probeEvent(endpoint, now));
      const answered = result.statusCode !== undefined && result.statusCode >= 200 && result.statusCode < 300;
      if (answered) await this.reEnable(endpoint);
    }
  }

  private probeEvent(endpoint: WebhookEndpoint, now: number): WebhookEvent {
    return Object.assign(new WebhookEvent(), {
      id: `evt_probe_${randomUUID().replace(/-/g, '')}`,
      kind: PING_EVENT,
      data: { endpoint_id: endpoint.id, probe: true },
      createdAt: now,
    });
  }

  /**
   * Enables the endpoint again, if it is still disabled and recovering by itself (an administrator may have changed
   * it meanwhile), then re-queues what failed or was skipped since it started failing (a recovery, one attempt each).
   */
  private async reEnable(probed: WebhookEndpoint): Promise<void> {
    const enabled = await this.unitOfWork.run(async (tx) => {
      const endpoint = await this.endpoints.findForUpdate(probed.id, tx);
      if (!endpoint || endpoint.active || !endpoint.autoRecover || endpoint.disabledReason === null) return undefined;
      // A delivery that ended failing in this spell was written at most its whole retry schedule before it began.
      const retrying = this.config.retrySchedule.reduce((sum, delay) => sum + delay, 0);
      const since = (endpoint.failingSince ?? this.clock.nowMs()) - retrying;
      Object.assign(endpoint, { active: true, disabledReason: null, failingSince: null, warnedAt: null });
      endpoint.nextProbeAt = null;
      return { endpoint: await this.endpoints.save(endpoint, tx.manager), since };
    });
    if (!enabled) return;
    this.dispatcher.endpointChanged(enabled.endpoint);
    const { requeued } = await this.recovery.recover(probed.id, { since: new Date(enabled.since).toISOString() });
    this.logger.log({ endpoint: probed.id, requeued }, `Webhook endpoint ${probed.id} answers again: enabled`);
    await this.trail.record({
      actor: SYSTEM_ACTOR,
      action: 'webhook-endpoint.re-enable',
      targetType: 'webhook-endpoint',
      targetId: probed.id,
      details: { requeued, since: new Date(enabled.since).toISOString() },
    });
  }
}
