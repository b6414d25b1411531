import type { AuditOrigin } from '../../audit/index.js';
import type { TokenRequest } from '../credentials/token-request.js';
import type { TokenResponse } from '../issuing/access-tokens.service.js';
import type { TokenConfig } from '../token.config.js';

/** One grant type of the token endpoint. */
export interface Grant {
  readonly type: string;
  /** `origin`: where the request came from, for the audit trail of sign-ins. */
  handle(request: TokenRequest, origin: AuditOrigin): Promise<TokenResponse>;
}

/**
 * The grant types the token endpoint serves, in the order the metadata lists them. OAUTH_PASSWORD_GRANT=off: the
 * password grant is unsupported, as OAuth 2.1 has it.
 */
export function enabledGrantTypes({ passwordGrant }: Pick<TokenConfig, 'passwordGrant'>): string[] {
  return ['authorization_code', 'client_credentials', ...(passwordGrant ? ['password'] : []), 'refresh_token'];
}
