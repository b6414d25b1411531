import { OAuthError } from '../oauth-error.js';
import type { ClientCredentials } from '../issuing/token-request.js';
import { ADMIN_CLIENT_ID } from './grant.js';

/** The password grant belongs to the administration interface, a public client without a secret. */
export function assertAdministrationClient(client: ClientCredentials, grant: string): void {
  if (client.clientId !== ADMIN_CLIENT_ID) {
    if (client.method === 'none') throw OAuthError.invalidClient('Unknown client.', false);
    throw new OAuthError('unauthorized_client', `Only the administration interface may use the ${grant} grant.`);
  }
  authenticateAdministrationClient(client);
}

/** The administration client is public (RFC 6749 §2.1): one that presents a secret for it fails authentication. */
export function authenticateAdministrationClient(client: ClientCredentials): void {
  if (client.method !== 'none') {
    throw OAuthError.invalidClient('The administration client has no secret.', client.method === 'client_secret_basic');
  }
}
