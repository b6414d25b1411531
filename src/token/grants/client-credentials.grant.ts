import { Injectable } from '@nestjs/common';
import { AccessTokensService, type TokenResponse } from '../issuing/access-tokens.service.js';
import { OAuthError } from '../credentials/oauth-error.js';
import { grantedScope } from '../credentials/scopes.js';
import { subjectOf } from '../credentials/subjects.js';
import type { TokenRequest } from '../credentials/token-request.js';
import { type Grant } from './grant.js';
import { ADMIN_CLIENT_ID } from '../credentials/administration-client.js';
import { IntegrationClients } from '../clients/integration-clients.js';

/** client_credentials: an integration authenticates with its access key id and secret (RFC 6749 §4.4). */
@Injectable()
export class ClientCredentialsGrant implements Grant {
  readonly type = 'client_credentials';

  constructor(
    private readonly clients: IntegrationClients,
    private readonly tokens: AccessTokensService,
  ) {}

  async handle({ client, params }: TokenRequest): Promise<TokenResponse> {
    if (client.clientId === ADMIN_CLIENT_ID) {
      throw new OAuthError('unauthorized_client', 'The administration client may not use client_credentials.');
    }
    const { integration, permissions } = await this.clients.authenticate(client);
    const scope = grantedScope(params.scope, permissions);
    this.clients.recordUse(integration.id);
    return this.tokens.respond({
      subject: subjectOf('integration', integration.id),
      clientId: integration.accessKeyId,
      scope,
      version: integration.tokenVersion,
    });
  }
}
