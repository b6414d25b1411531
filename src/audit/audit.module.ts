import { Module } from '@nestjs/common';
import { SettingsModule } from '../config/config.module.js';
import { DatabaseModule } from '../database/database.module.js';
import { auditConfig } from './audit.config.js';
import { auditSchema } from './audit.schema.js';
import { AuditEventsController } from './reading/audit-events.controller.js';
import { AuditRetention } from './audit-retention.js';
import { AuditTrail } from './recording/audit-trail.service.js';
import { AuditEventsRepository } from './repositories/audit-events.repository.js';

/**
 * The audit trail: its table, its API (`GET /api/audit-events`), its retention sweep, and what features record with
 * (AuditTrail, and `@Audited()`). It imports no feature, so any feature may import it.
 */
@Module({
  imports: [DatabaseModule.forFeature(auditSchema), SettingsModule.forFeature(auditConfig)],
  controllers: [AuditEventsController],
  providers: [AuditEventsRepository, AuditTrail, AuditRetention],
  // The interceptor behind @Audited() is built in each module that uses it, from this AuditTrail.
  exports: [AuditTrail],
})
export class AuditModule {}

/** Recording alone (AuditTrail), without the API and the retention sweep: for the command line. */
@Module({
  imports: [DatabaseModule.forFeature(auditSchema)],
  providers: [AuditEventsRepository, AuditTrail],
  exports: [AuditTrail],
})
export class AuditRecordingModule {}
