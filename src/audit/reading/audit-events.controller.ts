import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems, RequirePermission } from '@file-fields/nest';
import { AuditEventPageDto, AuditEventsQueryDto } from './audit-events.dto.js';
import { AuditTrail } from '../recording/audit-trail.service.js';

/** Settings > system > audit trail: read-only. */
@ApiTags('audit')
@Controller('api/audit-events')
export class AuditEventsController {
  constructor(private readonly trail: AuditTrail) {}

  @Get()
  @RequirePermission('audit:read')
  @ApiOkResponse({ type: AuditEventPageDto })
  @ApiOperation({
    operationId: 'listAuditEvents',
    summary: 'Changes made through the administration API and sign-ins, newest first',
  })
  @ApiProblems(400)
  async list(@Query() query: AuditEventsQueryDto): Promise<AuditEventPageDto> {
    const filter = {
      actor: query.actor,
      action: query.action,
      targetType: query.target_type,
      targetId: query.target_id,
      since: epochOf(query.since),
      until: epochOf(query.until),
    };
    const page = await this.trail.page(filter, query.limit, query.offset);
    return AuditEventPageDto.from({ ...page, limit: query.limit, offset: query.offset });
  }
}

const epochOf = (time: string | undefined) => (time === undefined ? undefined : Date.parse(time));
