import type { AuditOrigin } from '../../audit/index.js';
import type { TokenRequest } from '../issuing/token-request.js';

/** The successful token response (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

/** The public client of the service's own administration interface (the only one the password grant serves). */
export const ADMIN_CLIENT_ID = 'administration';

/** One grant type of the token endpoint. */
export interface Grant {
  readonly type: string;
  /** `origin`: where the request came from, for the audit trail of sign-ins. */
  handle(request: TokenRequest, origin: AuditOrigin): Promise<TokenResponse>;
}
