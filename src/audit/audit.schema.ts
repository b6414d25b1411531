import type { FeatureSchema } from '@file-fields/nest';
import { AuditEvent } from './audit-event.entity.js';
import { AuditEvents1763800007000 } from './migrations/1763800007000-audit-events.js';
import { AuditEventTargets1763800014100 } from './migrations/1763800014100-audit-event-targets.js';

/** The AuditModule's table and the migration that makes it. */
export const auditSchema: FeatureSchema = {
  entities: [AuditEvent],
  migrations: [AuditEvents1763800007000, AuditEventTargets1763800014100],
};
