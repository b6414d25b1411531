import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../common/auth/auth.decorators.js';
import { ParseIdPipe } from '../common/pipes/parse-id.pipe.js';
import type { WebhookAttempt } from './entities/webhook-attempt.entity.js';
import type { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import type { WebhookEndpoint } from './entities/webhook-endpoint.entity.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';
import { CreateWebhookDto, DeliveriesQueryDto, UpdateWebhookDto } from './webhooks.dto.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function endpointView(endpoint: WebhookEndpoint, withSecret = false) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    active: endpoint.active,
    disabled_reason: endpoint.disabledReason,
    ...(withSecret ? { secret: endpoint.secret } : {}),
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt,
  };
}

function deliveryView(delivery: WebhookDelivery, attempts: WebhookAttempt[] = []) {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.status === 'pending' ? iso(delivery.nextAttemptAt) : null,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    created_at: iso(delivery.createdAt),
    completed_at: iso(delivery.completedAt),
    attempt_log: attempts.map((a) => ({
      attempted_at: iso(a.attemptedAt),
      status_code: a.statusCode,
      error: a.error,
      duration_ms: a.durationMs,
      response_body: a.responseBody,
    })),
  };
}

@ApiTags('webhooks')
@RequirePermission('webhook:write')
@Controller('api/webhooks')
export class WebhooksController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @ApiOperation({
    summary: 'Register an endpoint; the answer holds its signing secret, shown only here and on rotation',
  })
  async create(@Body() body: CreateWebhookDto) {
    return endpointView(await this.endpoints.create(body), true);
  }

  @Get()
  async list() {
    return (await this.endpoints.list()).map((endpoint) => endpointView(endpoint));
  }

  @Get(':id')
  async get(@Param('id', ParseIdPipe) id: number) {
    return endpointView(await this.endpoints.get(id));
  }

  @Patch(':id')
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateWebhookDto) {
    return endpointView(await this.endpoints.update(id, body));
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
    await this.endpoints.remove(id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({ summary: 'New signing secret; the old one still signs too during WEBHOOK_SECRET_GRACE' })
  async rotate(@Param('id', ParseIdPipe) id: number) {
    return endpointView(await this.endpoints.rotateSecret(id), true);
  }

  @Post(':id/ping')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a webhook.ping event to this endpoint' })
  ping(@Param('id', ParseIdPipe) id: number) {
    return this.endpoints.ping(id);
  }

  @Get(':id/deliveries')
  async deliveries(@Param('id', ParseIdPipe) id: number, @Query() query: DeliveriesQueryDto) {
    const page = await this.endpoints.deliveries(id, query.status, query.limit, query.offset);
    return { ...page, items: page.items.map(({ delivery, attempts }) => deliveryView(delivery, attempts)) };
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @HttpCode(200)
  @ApiOperation({ summary: 'One new attempt now, with the same event id (also for a disabled endpoint)' })
  async redeliver(@Param('id', ParseIdPipe) id: number, @Param('deliveryId', ParseIdPipe) deliveryId: number) {
    return deliveryView(await this.endpoints.redeliver(id, deliveryId));
  }
}
