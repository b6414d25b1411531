import { Injectable } from '@nestjs/common';
import { AccessTokensService } from '../access-tokens.service.js';
import { IntegrationsService } from '../admin/integrations.service.js';
import { RolesRepository } from '../repositories/roles.repository.js';
import { OAuthError } from '../oauth-error.js';
import { grantedScope } from '../scopes.js';
import { subjectOf } from '../subject-status.service.js';
import type { TokenRequest } from '../token-request.js';
import { ADMIN_CLIENT_ID, type Grant, type TokenResponse } from './grant.js';

/** client_credentials: an integration authenticates with its access key id and secret (RFC 6749 §4.4). */
@Injectable()
export class ClientCredentialsGrant implements Grant {
  readonly type = 'client_credentials';

  constructor(
    private readonly integrations: IntegrationsService,
    private readonly tokens: AccessTokensService,
    private readonly roles: RolesRepository,
  ) {}

  async handle({ client, params }: TokenRequest): Promise<TokenResponse> {
    const usedBasic = client.method === 'client_secret_basic';
    if (client.clientId === ADMIN_CLIENT_ID) {
      throw new OAuthError('unauthorized_client', 'The administration client may not use client_credentials.');
    }
    if (client.clientSecret === undefined) throw OAuthError.invalidClient('The client secret is missing.', usedBasic);
    const integration = await this.integrations.findByAccessKey(client.clientId);
    if (
      !integration ||
      !integration.active ||
      this.integrations.expired(integration) ||
      !this.integrations.secretMatches(integration, client.clientSecret)
    ) {
      throw OAuthError.invalidClient('Unknown client, disabled or expired client, or wrong secret.', usedBasic);
    }
    const role = await this.roles.findExisting(integration.roleId);
    const scope = grantedScope(params.scope, role.permissions);
    await this.integrations.markUsed(integration.id);
    return this.tokens.respond({
      subject: subjectOf('integration', integration.id),
      clientId: integration.accessKeyId,
      scope,
      version: integration.tokenVersion,
    });
  }
}
