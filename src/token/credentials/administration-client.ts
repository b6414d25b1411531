import { OAuthError } from './oauth-error.js';
import type { ClientCredentials } from './token-request.js';

/** The public client of the service's own administration interface (the only one the password grant serves). */
export const ADMIN_CLIENT_ID = 'administration';

/** How the built-in administration client is named on the sign-in page. */
export const ADMIN_CLIENT_NAME = 'the administration interface';

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
