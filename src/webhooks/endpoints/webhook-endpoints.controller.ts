import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiProblems, RequirePermission, CurrentPrincipal, ParseIdPipe } from '@file-fields/nest';
import { Audited } from '../../audit/index.js';
import type { Page } from '@file-fields/nest';
import type { Principal } from '../../common/auth/principal.js';
import { WebhookEndpointDto, WebhookPingDto } from './webhook-endpoint-view.dto.js';
import { PING_LIMIT, WebhookEndpointsService } from './webhook-endpoints.service.js';
import { WebhookEndpointViews } from './webhook-endpoint-views.js';
import { WebhookEndpointPageDto, WebhooksQueryDto } from './webhook-endpoint-list.js';
import { WebhookEventCatalog } from '../events/webhook-event-catalog.js';
import { WebhookEventTypeDto } from '../events/webhook-event-type-view.dto.js';
import { ANY_EVENT_SCHEMA, eventSchemaName } from '../events/webhook-events.openapi.js';
import { CreateWebhookDto, RotateWebhookSecretDto, UpdateWebhookDto } from './webhook-endpoints.dto.js';

/** Changing an endpoint, or sending its events again, needs every permission its events need. */
export const MANAGE_FORBIDDEN = [
  403,
  "The token lacks webhook:write, or a permission the endpoint's events need (`<type>:read` of each attachment type " +
    'it may receive): `privilege-escalation`, listing them in `missing_permissions`',
] as const;

/** A registration or a change refused for its body, or for its URL (whose cause is also an error of `url`). */
const URL_REFUSED = [
  400,
  'Invalid body, or a refused URL (`unsafe-webhook-url`: malformed, not https, with credentials, or pointing at a ' +
    'private network), its cause also in `errors` as a violation of `url`',
] as const;

@ApiTags('webhooks')
@RequirePermission('webhook:write')
@Controller('api/webhooks')
export class WebhookEndpointsController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly views: WebhookEndpointViews,
    private readonly catalog: WebhookEventCatalog,
  ) {}

  @Post()
  @Audited('webhook-endpoint.create', 'webhook-endpoint')
  @ApiCreatedResponse({ type: WebhookEndpointDto })
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Register an endpoint; the answer holds its signing secret, shown only here and on rotation',
    description:
      'The endpoint receives only the events the caller may read: one about an attachment type needs `<type>:read` ' +
      '(webhook.endpoint.disabled needs `webhook:write`) in this token, or it is not queued for the endpoint, and ' +
      'in the role of the user or integration that registered it when it is sent, or it is skipped.',
  })
  @ApiProblems(URL_REFUSED)
  async create(@Body() body: CreateWebhookDto, @CurrentPrincipal() actor: Principal): Promise<WebhookEndpointDto> {
    return this.views.one(await this.endpoints.create(body, actor), true);
  }

  @Get()
  @ApiOkResponse({ type: WebhookEndpointPageDto })
  @ApiOperation({
    operationId: 'listWebhooks',
    summary: 'List the webhook endpoints with their health (never their secrets): a page, searched, sorted',
  })
  @ApiProblems(400)
  list(@Query() query: WebhooksQueryDto): Promise<Page<WebhookEndpointDto>> {
    return this.views.page(query);
  }

  // Before `:id`, which would take `event-types` for an id.
  @Get('event-types')
  @ApiOkResponse({ type: [WebhookEventTypeDto] })
  @ApiOperation({
    operationId: 'listWebhookEventTypes',
    summary: 'The event kinds, each with a description and the JSON Schema of its data',
    description:
      `The OpenAPI document describes each kind's whole delivery body as a component schema ` +
      `(\`${eventSchemaName('<event>')}\`, e.g. \`${eventSchemaName('file.created')}\`), ` +
      `and \`${ANY_EVENT_SCHEMA}\` as their union told apart by \`event\`, the body of the \`webhookEvent\` ` +
      "callback of `createWebhook`: generate receivers' types from those.",
  })
  eventTypes(): WebhookEventTypeDto[] {
    return this.catalog.all().map((definition) => WebhookEventTypeDto.from(definition));
  }

  @Get(':id')
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiOperation({ operationId: 'getWebhook', summary: 'Get one webhook endpoint' })
  @ApiProblems(400, [404, 'No such webhook endpoint'])
  async get(@Param('id', ParseIdPipe) id: number): Promise<WebhookEndpointDto> {
    return this.views.one(await this.endpoints.get(id));
  }

  @Patch(':id')
  @Audited('webhook-endpoint.update', 'webhook-endpoint')
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiOperation({ operationId: 'updateWebhook', summary: 'Change URL, events, filter, description or active' })
  @ApiProblems(
    URL_REFUSED,
    MANAGE_FORBIDDEN,
    [404, 'No such webhook endpoint'],
    [409, 'A different signature_scheme: the scheme changes only with a rotation (rotate-secret)'],
  )
  async update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateWebhookDto,
    @CurrentPrincipal() actor: Principal,
  ): Promise<WebhookEndpointDto> {
    return this.views.one(await this.endpoints.update(id, body, actor));
  }

  @Delete(':id')
  @Audited('webhook-endpoint.delete', 'webhook-endpoint')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiOperation({ operationId: 'deleteWebhook', summary: 'Delete an endpoint and its delivery history' })
  @ApiProblems(400, MANAGE_FORBIDDEN, [404, 'No such webhook endpoint'])
  async remove(@Param('id', ParseIdPipe) id: number, @CurrentPrincipal() actor: Principal): Promise<void> {
    await this.endpoints.remove(id, actor);
  }

  @Post(':id/rotate-secret')
  @Audited('webhook-endpoint.rotate-secret', 'webhook-endpoint')
  @HttpCode(200)
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary:
      'New signing secret, optionally in another scheme; the old one still signs too during WEBHOOK_SECRET_GRACE',
  })
  @ApiBody({ type: RotateWebhookSecretDto, required: false })
  @ApiProblems(400, MANAGE_FORBIDDEN, [404, 'No such webhook endpoint'])
  async rotate(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: RotateWebhookSecretDto,
    @CurrentPrincipal() actor: Principal,
  ): Promise<WebhookEndpointDto> {
    return this.views.one(await this.endpoints.rotateSecret(id, actor, body.signature_scheme), true);
  }

  @Post(':id/ping')
  @Audited('webhook-endpoint.ping', 'webhook-endpoint')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: WebhookPingDto })
  @ApiOperation({
    operationId: 'pingWebhook',
    summary: `Send a webhook.ping event to this endpoint (at most ${PING_LIMIT} an hour)`,
  })
  @ApiProblems(
    400,
    [404, 'No such webhook endpoint'],
    [429, `Pinged ${PING_LIMIT} times within the last hour; retry after the Retry-After header`],
  )
  async ping(@Param('id', ParseIdPipe) id: number): Promise<WebhookPingDto> {
    return WebhookPingDto.from(await this.endpoints.ping(id));
  }
}
