import { Injectable } from '@nestjs/common';
import type { Page, PageQuery } from '@file-fields/nest';
import { UnitOfWork } from '@file-fields/nest';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import { WebhookEndpointListRepository } from '../repositories/webhook-endpoint-list.repository.js';
import { WebhookEndpointDto } from './webhook-endpoint-view.dto.js';

/** Endpoints as the API shows them, with the health the list and their page show: a page in a fixed few queries. */
@Injectable()
export class WebhookEndpointViews {
  constructor(
    private readonly list: WebhookEndpointListRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** A page of endpoints and the last delivery of each, read from one snapshot. */
  page(query: PageQuery): Promise<Page<WebhookEndpointDto>> {
    return this.unitOfWork.read(async (manager) => {
      const page = await this.list.page(query, manager);
      const last = await this.list.lastDeliveries(
        page.items.map((endpoint) => endpoint.id),
        manager,
      );
      const items = page.items.map((endpoint) =>
        WebhookEndpointDto.from({ endpoint, lastDelivery: last.get(endpoint.id) ?? null }),
      );
      return { ...page, items };
    });
  }

  /** One endpoint with its last delivery; its signing secret too when `withSecret` (registration, rotation). */
  async one(endpoint: WebhookEndpoint, withSecret = false): Promise<WebhookEndpointDto> {
    const last = await this.list.lastDeliveries([endpoint.id]);
    return WebhookEndpointDto.from({ endpoint, lastDelivery: last.get(endpoint.id) ?? null }, withSecret);
  }
}
