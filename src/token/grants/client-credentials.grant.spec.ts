import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { IntegrationClients } from '../clients/integration-clients.js';
import type { ClientCredentials, TokenRequest } from '../credentials/token-request.js';
import { AccessTokensService } from '../issuing/access-tokens.service.js';
import type { IntegrationsRepository } from '../repositories/integrations.repository.js';
import { SigningKeysService } from '../issuing/signing-keys.service.js';
import { actorWith, adminServices } from '../testing/admin-services.js';
import { asReal, FakeSigningKeysRepository } from '../testing/in-memory-repositories.js';
import { loadTokenConfig } from '../token.config.js';
import { ClientCredentialsGrant } from './client-credentials.grant.js';

describe('ClientCredentialsGrant', () => {
  beforeAll(() => Logger.overrideLogger(false));

  const setup = async () => {
    const s = await adminServices();
    const config = loadTokenConfig({ OAUTH_ISSUER: 'https://files.example' });
    const keys = new SigningKeysService(asReal(new FakeSigningKeysRepository(() => s.clock.now())), s.clock, config);
    await keys.onModuleInit();
    const integrations = asReal<IntegrationsRepository>(s.repos.integrations);
    const clients = new IntegrationClients(integrations, asReal(s.repos.roles), s.status, config, s.clock);
    const tokens = new AccessTokensService(new JwtService({}), keys, config, s.clock);
    await s.roles.create({ name: 'reader', permissions: ['product:read', 'article:read'] }, actorWith('*'));
    const { integration, secret } = await s.integrations.create({ label: 'ERP', role: 'reader' }, actorWith('*'));
    return {
      grant: new ClientCredentialsGrant(clients, tokens),
      repository: s.repos.integrations,
      integration,
      secret,
    };
  };
  const request = (client: ClientCredentials): TokenRequest => ({
    grantType: 'client_credentials',
    client,
    params: { grant_type: 'client_credentials', client_id: client.clientId },
  });
  const post = (clientId: string, clientSecret: string) =>
    request({ clientId, clientSecret, method: 'client_secret_post' });

  it("issues an integration a token of its role's permissions (the control)", async () => {
    const { grant, integration, secret } = await setup();
    expect(await grant.handle(post(integration.accessKeyId, secret))).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'product:read article:read',
    });
  });

  it('answers the administration client unauthorized_client (400)', async () => {
    const { grant } = await setup();
    await expect(grant.handle(post('administration', 'x'))).rejects.toMatchObject({
      error: 'unauthorized_client',
      status: 400,
    });
  });

  it.each([
    ['a malformed id', "'; DROP TABLE integrations; --"],
    ['a very long id', 'x'.repeat(10_000)],
    ['a unicode id', '☃'],
  ])('answers %s invalid_client (401) without looking it up', async (_name, clientId) => {
    const { grant, repository } = await setup();
    const lookup = jest.spyOn(repository, 'findByAccessKey');
    await expect(grant.handle(post(clientId, 's'))).rejects.toMatchObject({ error: 'invalid_client', status: 401 });
    expect(lookup).not.toHaveBeenCalled();
  });
});
