import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { findPage, type ListSpec, type Page, type PageQuery } from '@file-fields/nest';
import { WebhookDelivery } from '../entities/webhook-delivery.entity.js';
import { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';

/** The endpoint list: found by `q` in the URL or description, ordered by these keys (by id, as before paging). */
export const ENDPOINT_LIST: ListSpec<WebhookEndpoint> = {
  search: ['url', 'description'],
  sorts: { id: 'id', url: 'url', description: 'description', created_at: 'createdAt' },
  defaultSort: 'id',
};

/** How the latest delivery to an endpoint that ended went: delivered, or given up on. */
export interface LastDelivery {
  status: 'succeeded' | 'failed';
  /** When it ended (epoch ms). */
  at: number;
}

const ENDED = ['succeeded', 'failed'] as const;

/**
 * The endpoint list and the health of its endpoints, read for a page at a time. Its endpoints' secrets stay sealed:
 * the list never shows them.
 */
@Injectable()
export class WebhookEndpointListRepository {
  constructor(@InjectEntityManager() private readonly db: EntityManager) {}

  page(query: PageQuery, manager: EntityManager = this.db): Promise<Page<WebhookEndpoint>> {
    return findPage(manager.getRepository(WebhookEndpoint), query, ENDPOINT_LIST);
  }

  /**
   * The last delivery that ended, of each of these endpoints that has one, in one query: for each endpoint and each
   * final state, the newest delivery in it, found by the (endpoint_id, status, created_at) index in a step.
   */
  async lastDeliveries(ids: readonly number[], manager: EntityManager = this.db): Promise<Map<number, LastDelivery>> {
    if (ids.length === 0) return new Map();
    const query = manager.createQueryBuilder().select('e.id', 'id').from(WebhookEndpoint, 'e');
    for (const status of ENDED) {
      query.addSelect(
        (latest) =>
          latest
            .select('d.completed_at')
            .from(WebhookDelivery, 'd')
            .where('d.endpoint_id = e.id')
            .andWhere(`d.status = '${status}'`)
            .orderBy('d.created_at', 'DESC')
            .limit(1),
        status,
      );
    }
    const rows = await query
      .where('e.id IN (:...ids)', { ids: [...new Set(ids)] })
      .getRawMany<Record<'id' | (typeof ENDED)[number], string | number | null>>();
    return new Map(rows.flatMap((row) => lastOf(row)));
  }
}

/** The later of an endpoint's last success and last failure, if it has either. */
function lastOf(row: Record<'id' | (typeof ENDED)[number], string | number | null>): Array<[number, LastDelivery]> {
  const ended = ENDED.flatMap((status) => (row[status] == null ? [] : [{ status, at: Number(row[status]) }]));
  if (ended.length === 0) return [];
  const last = ended.reduce((a, b) => (b.at > a.at ? b : a));
  return [[Number(row.id), last]];
}
