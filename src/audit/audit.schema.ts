import type { FeatureSchema } from '../database/schema-registry.js';
import { AuditEvent } from './audit-event.entity.js';
import { AuditEvents1763800007000 } from './migrations/1763800007000-audit-events.js';

/** The AuditModule's table and the migration that makes it. */
export const auditSchema: FeatureSchema = {
  entities: [AuditEvent],
  migrations: [AuditEvents1763800007000],
};
