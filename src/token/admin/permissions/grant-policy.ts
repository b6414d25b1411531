import type { Principal } from '../../../common/auth/principal.js';
import { missingPermissions } from '../../credentials/scopes.js';
import { TokenAdminError, TokenAdminErrorCode } from '../../token-admin.errors.js';

/**
 * The escalation rule of the administration API: `actor` may create or change a role only with permissions it holds,
 * assign a role only if it holds every permission of that role, and change or delete a user or an integration only
 * if it holds every permission that target holds. Refusals name what is missing (403).
 */
export function assertHolds(actor: Principal, required: readonly string[], action: string): void {
  const missing = missingPermissions(actor.scopes, required);
  if (missing.length === 0) return;
  const error = new TokenAdminError(
    TokenAdminErrorCode.PrivilegeEscalation,
    `To ${action} you must hold every permission involved; missing: ${missing.join(', ')}.`,
  );
  error.extensions.missing_permissions = missing;
  throw error;
}
