/**
 * The AuditModule's public surface: everything another module uses comes from here.
 */
export { AuditModule, AuditRecordingModule } from './audit.module.js';
// One run of the retention sweep, for the background jobs.
export { AuditRetention } from './audit-retention.js';
export { Audited } from './recording/audited.decorator.js';
export { AuditTrail, type AuditOrigin, type AuditRecord } from './recording/audit-trail.service.js';
export { originOf } from './recording/audit.interceptor.js';
export { auditConfig } from './audit.config.js';
