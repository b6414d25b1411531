import { listQueryOf } from '@file-fields/nest';
import { pageSchemaOf } from '@file-fields/nest';
import { sortValuesOf } from '@file-fields/nest';
import { ENDPOINT_LIST } from '../repositories/webhook-endpoint-list.repository.js';
import { WebhookEndpointDto } from './webhook-endpoint-view.dto.js';

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
