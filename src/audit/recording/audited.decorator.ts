import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { AUDITED, AuditInterceptor, type AuditedAction } from './audit.interceptor.js';

/**
 * Records every successful call of this handler in the audit trail (and every call refused with 403), with the
 * caller, the target (the `:id` route parameter, or the `id` of the created record) and where the request came from.
 */
export function Audited(action: string, targetType: string) {
  return applyDecorators(
    SetMetadata(AUDITED, { action, targetType } satisfies AuditedAction),
    UseInterceptors(AuditInterceptor),
  );
}
