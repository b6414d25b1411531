import type { ConfigType } from '@nestjs/config';
import { featureConfig } from '../config/feature-config.js';
import { Setting } from '../config/setting.js';
import { durationMs, IsDuration } from '../config/validate-config.js';

/** The AUDIT_* environment variables, with their defaults. */
class AuditEnvironment {
  @Setting({ doc: 'How long audit events are kept (units `ms`, `s`, `m`, `h`, `d`); older ones are deleted hourly' })
  @IsDuration({ message: 'AUDIT_RETENTION must be a duration like 90d' })
  AUDIT_RETENTION = '90d';
}

/** Audit trail settings, durations in milliseconds; validated from `process.env` when the module loads. */
export const auditConfig = featureConfig('audit', AuditEnvironment, (env) => ({
  retentionMs: durationMs(env.AUDIT_RETENTION),
}));

export type AuditConfig = ConfigType<typeof auditConfig>;

/** The settings from the given variables (a bad value throws a message naming each bad variable). */
export function auditConfigFrom(raw: Record<string, unknown>): AuditConfig {
  return auditConfig.from(raw);
}
