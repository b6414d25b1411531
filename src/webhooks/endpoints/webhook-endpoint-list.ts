import { listQueryOf } from '../../common/dto/list-query.dto.js';
import { pageSchemaOf } from '../../common/dto/page.dto.js';
import { sortValuesOf, type ListSpec } from '../../database/list-page.js';
import type { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';
import { WebhookEndpointDto } from './webhook-endpoint-view.dto.js';

/** The endpoint list: found by `q` in the URL or description, ordered by these keys (by id, as before paging). */
export const ENDPOINT_LIST: ListSpec<WebhookEndpoint> = {
  search: ['url', 'description'],
  sorts: { id: 'id', url: 'url', description: 'description', created_at: 'createdAt' },
  defaultSort: 'id',
};

export class WebhooksQueryDto extends listQueryOf({
  name: 'WebhookEndpoint',
  sorts: sortValuesOf(ENDPOINT_LIST),
  defaultSort: ENDPOINT_LIST.defaultSort,
  searchedIn: 'URL or description',
}) {}

export const WebhookEndpointPageDto = pageSchemaOf(
  WebhookEndpointDto,
  'WebhookEndpoint',
  'A page of webhook endpoints',
);
