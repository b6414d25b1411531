import { registerAs, type ConfigType } from '@nestjs/config';
import { durationMs, IsDuration, validateConfig } from '../config/validate-config.js';

/** The AUDIT_* environment variables, with their defaults. */
export class AuditEnvironment {
  /** How long audit events are kept; older ones are deleted by an hourly sweep. */
  @IsDuration({ message: 'AUDIT_RETENTION must be a duration like 90d' })
  AUDIT_RETENTION = '90d';
}

/** Audit trail settings, durations in milliseconds; validated from `process.env` when the module loads. */
export const auditConfig = registerAs('audit', () => auditConfigFrom(process.env));

export type AuditConfig = ConfigType<typeof auditConfig>;

/** The settings from the given variables (a bad value throws a message naming each bad variable). */
export function auditConfigFrom(raw: Record<string, unknown>) {
  const env = validateConfig(AuditEnvironment, raw);
  return { retentionMs: durationMs(env.AUDIT_RETENTION) };
}
