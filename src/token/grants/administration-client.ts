import { OAuthError } from '../../common/errors/oauth-error.js';
import type { ClientCredentials } from '../token-request.js';
import { ADMIN_CLIENT_ID } from './grant.js';

/** The password and refresh grants belong to the administration interface, a public client without a secret. */
export function assertAdministrationClient(client: ClientCredentials, grant: string): void {
  const usedBasic = client.method === 'client_secret_basic';
  if (client.clientId !== ADMIN_CLIENT_ID) {
    if (client.method === 'none') throw OAuthError.invalidClient('Unknown client.', usedBasic);
    throw new OAuthError('unauthorized_client', `Only the administration interface may use the ${grant} grant.`);
  }
  if (client.method !== 'none') throw OAuthError.invalidClient('The administration client has no secret.', usedBasic);
}
