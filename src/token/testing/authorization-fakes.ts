import type { AuditRecord, AuditTrail } from '../../audit/index.js';
import type { AuthorizationClient } from '../clients/authorization-clients.js';
import type { AuthorizationRequest } from '../endpoints/authorize/request/authorization-request.js';
import type { Visitor } from '../endpoints/authorize/pages/page-answer.js';
import { asReal } from './in-memory-repositories.js';

/** A registered application as the authorization endpoint sees it. */
export const SHOP: AuthorizationClient = {
  clientId: 'app_shop000000000000000000',
  name: 'Shop',
  redirectUris: ['https://shop.example/cb'],
  scopes: ['product:read', 'product:write'],
  defaultScopes: ['product:read'],
  builtIn: false,
};

/** A valid S256 challenge (43 base64url characters). */
export const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/** The query of a valid authorization request from {@link SHOP}; `overrides` replace (or, undefined, drop) fields. */
export function authorizationQuery(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const query: Record<string, unknown> = {
    response_type: 'code',
    client_id: SHOP.clientId,
    redirect_uri: SHOP.redirectUris[0],
    state: 'xyz',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...overrides,
  };
  for (const [name, value] of Object.entries(query)) if (value === undefined) delete query[name];
  return query;
}

/** A checked request from {@link SHOP}, as the request checks return it. */
export function checkedRequest(overrides: Partial<AuthorizationRequest> = {}): AuthorizationRequest {
  return {
    client: SHOP,
    redirectUri: SHOP.redirectUris[0],
    scope: '',
    state: 'xyz',
    codeChallenge: CHALLENGE,
    ...overrides,
  };
}

/** A browser without cookies, from one address. */
export const VISITOR: Visitor = { cookies: undefined, origin: { sourceIp: '192.0.2.1' } };

/** An audit trail that keeps what it is given. */
export function recordingTrail(): { trail: AuditTrail; recorded: AuditRecord[] } {
  const recorded: AuditRecord[] = [];
  const trail = {
    record: (event: AuditRecord) => Promise.resolve(void recorded.push(event)),
    page: () => Promise.reject(new Error('not used')),
    recordIn: () => Promise.reject(new Error('not used')),
  };
  return { trail: asReal<AuditTrail>(trail), recorded };
}
