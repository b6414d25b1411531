import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited } from '../../audit/index.js';
import { RequirePermission, CurrentPrincipal, ApiProblems, ParseIdPipe } from '@file-fields/nest';
import type { Principal } from '../../common/auth/principal.js';
import { MANAGE_FORBIDDEN } from '../endpoints/webhook-endpoints.controller.js';
import { WebhookEndpointsService } from '../endpoints/webhook-endpoints.service.js';
import { DeliveriesQueryDto, RecoverWebhookDeliveriesDto } from './webhook-deliveries.dto.js';
import { WebhookDeliveryLog } from './webhook-delivery-log.js';
import { WebhookDeliveryDto, WebhookDeliveryPageDto } from './webhook-delivery-view.dto.js';
import { WebhookRecoveryDto } from './webhook-recovery-view.dto.js';
import { RECOVERY_LIMIT, WebhookRecovery } from './webhook-recovery.service.js';

/** An endpoint's deliveries: its log, one delivery sent again, a time window recovered (after the endpoint routes). */
@ApiTags('webhooks')
@RequirePermission('webhook:write')
@Controller('api/webhooks')
export class WebhookDeliveriesController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly log: WebhookDeliveryLog,
    private readonly recovery: WebhookRecovery,
  ) {}

  @Post(':id/recover')
  @Audited('webhook-endpoint.recover', 'webhook-endpoint')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: WebhookRecoveryDto })
  @ApiOperation({
    operationId: 'recoverWebhookDeliveries',
    summary: 'Send again every failed or skipped delivery of a time window, one attempt each, oldest first',
    description:
      `Re-queues at most ${RECOVERY_LIMIT} deliveries, with their event ids, sent at the endpoint's concurrency. ` +
      'When `remaining` > 0, call again with `since` = `next_since` (and the same `until`) once this recovery has ' +
      'finished: until each of its deliveries has had its attempt, another recovery of the endpoint is refused (409).',
  })
  @ApiProblems(
    400,
    MANAGE_FORBIDDEN,
    [404, 'No such webhook endpoint'],
    [409, 'A recovery of this endpoint is still running, or the endpoint is disabled (re-enable it first)'],
  )
  async recover(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: RecoverWebhookDeliveriesDto,
    @CurrentPrincipal() actor: Principal,
  ): Promise<WebhookRecoveryDto> {
    await this.endpoints.assertMayRecover(id, actor);
    return WebhookRecoveryDto.from(await this.recovery.recover(id, body));
  }

  @Get(':id/deliveries')
  @ApiOkResponse({ type: WebhookDeliveryPageDto })
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'List the deliveries to this endpoint, newest first, with their attempts',
  })
  @ApiProblems(400, [404, 'No such webhook endpoint'])
  async deliveries(
    @Param('id', ParseIdPipe) id: number,
    @Query() query: DeliveriesQueryDto,
  ): Promise<WebhookDeliveryPageDto> {
    const { status, event, event_id: eventId, limit, offset } = query;
    return WebhookDeliveryPageDto.from(await this.log.page(id, { status, event, eventId }, limit, offset));
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @Audited('webhook-endpoint.redeliver', 'webhook-endpoint')
  @HttpCode(200)
  @ApiOkResponse({ type: WebhookDeliveryDto })
  @ApiOperation({
    operationId: 'redeliverWebhookDelivery',
    summary: 'One new attempt now, with the same event id (also for a disabled endpoint)',
    description:
      "Skipped instead when the endpoint's creator may no longer read the event (`last_error` says which " +
      'permission it lacks).',
  })
  @ApiProblems(400, MANAGE_FORBIDDEN, [404, 'No such endpoint or delivery'])
  async redeliver(
    @Param('id', ParseIdPipe) id: number,
    @Param('deliveryId', ParseIdPipe) deliveryId: number,
    @CurrentPrincipal() actor: Principal,
  ): Promise<WebhookDeliveryDto> {
    await this.endpoints.redeliver(id, deliveryId, actor);
    return WebhookDeliveryDto.from(await this.log.one(id, deliveryId));
  }
}
