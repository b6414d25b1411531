import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsRFC3339, IsString, MaxLength } from 'class-validator';
import { ListQueryDto } from '@file-fields/nest';
import { AUDIT_OUTCOMES, type AuditEvent, type AuditOutcome } from '../audit-event.entity.js';

/**
 * `GET /api/audit-events?actor=&action=&target_type=&target_id=&since=&until=&limit=&offset=`: exact matches, and a
 * time range that includes `since` and excludes `until`.
 */
export class AuditEventsQueryDto extends ListQueryDto {
  @ApiPropertyOptional({
    example: 'user:1',
    description: 'Exact match, e.g. `user:1`, `integration:3`, `cli`',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  actor?: string;

  @ApiPropertyOptional({ example: 'integration.rotate-secret', description: 'Exact match' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  action?: string;

  @ApiPropertyOptional({ example: 'integration', description: 'Exact match on the kind of record changed' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  target_type?: string;

  @ApiPropertyOptional({ example: '3', description: 'Exact match on the id of the record changed' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  target_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only events at or after this time (RFC 3339)' })
  @IsOptional()
  @IsRFC3339()
  since?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Only events before this time (RFC 3339)' })
  @IsOptional()
  @IsRFC3339()
  until?: string;
}

/** One recorded change or sign-in: who, what, on which record, from where; never a secret. */
@ApiSchema({ name: 'AuditEvent' })
export class AuditEventDto {
  @ApiProperty({ type: 'integer', example: 41 }) id!: number;
  @ApiProperty({ format: 'date-time' }) occurred_at!: string;
  @ApiProperty({
    example: 'user:1',
    description:
      'The subject (`user:<id>`, `integration:<id>`), `anonymous` for a failed sign-in, `cli` for the command line',
  })
  actor!: string;
  @ApiProperty({ type: String, nullable: true, example: 'administration' }) client_id!: string | null;
  @ApiProperty({ example: 'integration.update' }) action!: string;
  @ApiProperty({ type: String, nullable: true, example: 'integration' }) target_type!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '3' }) target_id!: string | null;
  @ApiProperty({ enum: AUDIT_OUTCOMES, example: 'success', description: '`denied`: refused with 403' })
  outcome!: AuditOutcome;
  @ApiProperty({ type: String, nullable: true, description: 'The X-Request-Id of the request' })
  request_id!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '203.0.113.7' }) source_ip!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { fields: ['label', 'role'] },
    description: 'Names of the fields changed, the problem of a refusal, the reason of a failed sign-in',
  })
  details!: Record<string, unknown> | null;

  static from(event: AuditEvent): AuditEventDto {
    return Object.assign(new AuditEventDto(), {
      id: event.id,
      occurred_at: new Date(event.occurredAt).toISOString(),
      actor: event.actor,
      client_id: event.clientId,
      action: event.action,
      target_type: event.targetType,
      target_id: event.targetId,
      outcome: event.outcome,
      request_id: event.requestId,
      source_ip: event.sourceIp,
      details: event.details === null ? null : (JSON.parse(event.details) as Record<string, unknown>),
    });
  }
}

/** A page of the audit trail, newest first. */
@ApiSchema({ name: 'AuditEventPage' })
export class AuditEventPageDto {
  @ApiProperty({ type: [AuditEventDto] }) items!: AuditEventDto[];
  @ApiProperty({ type: 'integer', example: 1, description: 'Events matching the filter, over all pages' })
  total!: number;
  @ApiProperty({ type: 'integer', example: 20 }) limit!: number;
  @ApiProperty({ type: 'integer', example: 0 }) offset!: number;

  static from(page: { items: AuditEvent[]; total: number; limit: number; offset: number }): AuditEventPageDto {
    return Object.assign(new AuditEventPageDto(), {
      items: page.items.map((event) => AuditEventDto.from(event)),
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    });
  }
}
