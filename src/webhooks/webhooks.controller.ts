import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited } from '../audit/index.js';
import { RequirePermission } from '../common/auth/auth.decorators.js';
import { ParseIdPipe } from '../common/pipes/parse-id.pipe.js';
import { WebhookDeliveryDto, WebhookDeliveryPageDto } from './webhook-delivery-view.dto.js';
import { WebhookEndpointDto, WebhookPingDto } from './webhook-endpoint-view.dto.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { CreateWebhookDto, DeliveriesQueryDto, UpdateWebhookDto } from './webhooks.dto.js';

@ApiTags('webhooks')
@RequirePermission('webhook:write')
@Controller('api/webhooks')
export class WebhooksController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @Audited('webhook-endpoint.create', 'webhook-endpoint')
  @ApiOperation({
    summary: 'Register an endpoint; the answer holds its signing secret, shown only here and on rotation',
  })
  @ApiCreatedResponse({ type: WebhookEndpointDto })
  async create(@Body() body: CreateWebhookDto): Promise<WebhookEndpointDto> {
    return WebhookEndpointDto.from(await this.endpoints.create(body), true);
  }

  @Get()
  @ApiOkResponse({ type: [WebhookEndpointDto] })
  async list(): Promise<WebhookEndpointDto[]> {
    return (await this.endpoints.list()).map((endpoint) => WebhookEndpointDto.from(endpoint));
  }

  @Get(':id')
  @ApiOkResponse({ type: WebhookEndpointDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<WebhookEndpointDto> {
    return WebhookEndpointDto.from(await this.endpoints.get(id));
  }

  @Patch(':id')
  @Audited('webhook-endpoint.update', 'webhook-endpoint')
  @ApiOkResponse({ type: WebhookEndpointDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateWebhookDto): Promise<WebhookEndpointDto> {
    return WebhookEndpointDto.from(await this.endpoints.update(id, body));
  }

  @Delete(':id')
  @Audited('webhook-endpoint.delete', 'webhook-endpoint')
  @HttpCode(204)
  async remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
    await this.endpoints.remove(id);
  }

  @Post(':id/rotate-secret')
  @Audited('webhook-endpoint.rotate-secret', 'webhook-endpoint')
  @HttpCode(200)
  @ApiOperation({ summary: 'New signing secret; the old one still signs too during WEBHOOK_SECRET_GRACE' })
  @ApiOkResponse({ type: WebhookEndpointDto })
  async rotate(@Param('id', ParseIdPipe) id: number): Promise<WebhookEndpointDto> {
    return WebhookEndpointDto.from(await this.endpoints.rotateSecret(id), true);
  }

  @Post(':id/ping')
  @Audited('webhook-endpoint.ping', 'webhook-endpoint')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a webhook.ping event to this endpoint' })
  @ApiAcceptedResponse({ type: WebhookPingDto })
  async ping(@Param('id', ParseIdPipe) id: number): Promise<WebhookPingDto> {
    return WebhookPingDto.from(await this.endpoints.ping(id));
  }

  @Get(':id/deliveries')
  @ApiOkResponse({ type: WebhookDeliveryPageDto })
  async deliveries(
    @Param('id', ParseIdPipe) id: number,
    @Query() query: DeliveriesQueryDto,
  ): Promise<WebhookDeliveryPageDto> {
    return WebhookDeliveryPageDto.from(await this.endpoints.deliveries(id, query.status, query.limit, query.offset));
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @Audited('webhook-endpoint.redeliver', 'webhook-endpoint')
  @HttpCode(200)
  @ApiOperation({
    summary: 'One new attempt now, with the same event id (also for a disabled endpoint)',
    description: 'Answers the delivery as it is after that attempt, with an empty `attempt_log`.',
  })
  @ApiOkResponse({ type: WebhookDeliveryDto })
  async redeliver(
    @Param('id', ParseIdPipe) id: number,
    @Param('deliveryId', ParseIdPipe) deliveryId: number,
  ): Promise<WebhookDeliveryDto> {
    return WebhookDeliveryDto.from(await this.endpoints.redeliver(id, deliveryId));
  }
}
