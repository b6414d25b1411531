import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { UnitOfWork } from '@file-fields/nest';
import type { WebhookDelivery } from '../entities/webhook-delivery.entity.js';
import type { WebhookAttempt } from '../entities/webhook-attempt.entity.js';
import { WebhookAttemptsRepository } from '../repositories/webhook-attempts.repository.js';
import { WebhookDeliveriesRepository, type DeliveryFilter } from '../repositories/webhook-deliveries.repository.js';
import { WebhookEndpointsRepository } from '../repositories/webhook-endpoints.repository.js';
import { WebhookEventsRepository } from '../repositories/webhook-events.repository.js';
import { WebhooksError, WebhooksErrorCode } from '../webhooks.errors.js';

/** A delivery as its log shows it: its state, its event's kind, and its attempts, oldest first. */
export interface LoggedDelivery {
  delivery: WebhookDelivery;
  event: string;
  attempts: WebhookAttempt[];
}

export interface DeliveryLogPage {
  items: LoggedDelivery[];
  total: number;
  limit: number;
  offset: number;
}

/**
 * The delivery log of an endpoint, read from one snapshot: a delivery's state and its attempt log are written
 * together (WebhookAttemptRecorder), and are read together, with a fixed number of queries per page.
 */
@Injectable()
export class WebhookDeliveryLog {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly attempts: WebhookAttemptsRepository,
    private readonly events: WebhookEventsRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** A page of the endpoint's deliveries that match `filter`, newest first (404 for an unknown endpoint). */
  async page(endpointId: number, filter: DeliveryFilter, limit: number, offset: number) {
    if (!(await this.endpoints.findById(endpointId))) {
      throw new WebhooksError(WebhooksErrorCode.EndpointNotFound, `Webhook ${endpointId} does not exist.`);
    }
    return this.unitOfWork.read(async (manager): Promise<DeliveryLogPage> => {
      const page = { ...filter, limit, offset };
      const [deliveries, total] = await this.deliveries.pageOfEndpoint(endpointId, page, manager);
      return { items: await this.logged(deliveries, manager), total, limit, offset };
    });
  }

  /** One delivery of the endpoint (404 when the endpoint has no such delivery). */
  one(endpointId: number, deliveryId: number): Promise<LoggedDelivery> {
    return this.unitOfWork.read(async (manager) => {
      const delivery = await this.deliveries.findOfEndpoint(endpointId, deliveryId, manager);
      if (!delivery) {
        const detail = `Webhook ${endpointId} has no delivery ${deliveryId}.`;
        throw new WebhooksError(WebhooksErrorCode.DeliveryNotFound, detail);
      }
      const [logged] = await this.logged([delivery], manager);
      return logged;
    });
  }

  private async logged(deliveries: WebhookDelivery[], manager: EntityManager): Promise<LoggedDelivery[]> {
    const attempts = await this.attempts.ofDeliveries(
      deliveries.map((delivery) => delivery.id),
      manager,
    );
    const events = await this.events.findByIds(
      deliveries.map((delivery) => delivery.eventId),
      manager,
    );
    const kinds = new Map(events.map((event) => [event.id, event.kind]));
    return deliveries.map((delivery) => ({
      delivery,
      // A delivery's event is kept as long as the delivery (a foreign key).
      event: kinds.get(delivery.eventId) ?? 'unknown',
      attempts: attempts.filter((attempt) => attempt.deliveryId === delivery.id),
    }));
  }
}
