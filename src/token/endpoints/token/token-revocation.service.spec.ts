import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import type { AuditRecord, AuditTrail } from '../../../audit/index.js';
import type { UnitOfWork } from '@file-fields/nest';
import { noRedis } from '../../../redis/testing.js';
import { AuthorizationClients } from '../../clients/authorization-clients.js';
import { IntegrationClients } from '../../clients/integration-clients.js';
import { TooManyAttemptsError } from '../../credentials/oauth-error.js';
import { RefreshTokensService, type RotationCheck } from '../../issuing/refresh-tokens.service.js';
import { actorWith, adminServices } from '../../testing/admin-services.js';
import { asReal, FakeUnitOfWork } from '../../testing/in-memory-repositories.js';
import { FakeOAuthClientsRepository, fakeOAuthClientsService } from '../../testing/oauth-client-fakes.js';
import { TokenFailureLimiter } from '../../limits/token-failure-limiter.js';
import { TokenRevocationService } from './token-revocation.service.js';
import { loadTokenConfig } from '../../token.config.js';

const allow: RotationCheck<void> = () => Promise.resolve();
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const origin = { requestId: 'req-1', sourceIp: '192.0.2.1' };

describe('TokenRevocationService', () => {
  let s: Awaited<ReturnType<typeof adminServices>>;
  let refreshTokens: RefreshTokensService;
  let recorded: AuditRecord[];
  let revocation: TokenRevocationService;
  let integration: { accessKeyId: string; secret: string };
  /** Registered applications: a confidential one (with its secret) and a public one. */
  let shop: { clientId: string; secret: string };
  let mobile: string;

  beforeEach(async () => {
    // rate-limiter-flexible's memory store expires its keys with timers.
    jest.useFakeTimers();
    s = await adminServices();
    const config = loadTokenConfig({ TOKEN_FAILURES_PER_MINUTE: '3' });
    const unitOfWork = asReal<UnitOfWork>(new FakeUnitOfWork());
    refreshTokens = new RefreshTokensService(unitOfWork, config, s.clock, s.status, asReal(s.repos.refreshTokens));
    const integrations = new IntegrationClients(
      asReal(s.repos.integrations),
      asReal(s.repos.roles),
      s.status,
      config,
      s.clock,
    );
    recorded = [];
    const trail = {
      record: (event: AuditRecord) => Promise.resolve(void recorded.push(event)),
      page: () => Promise.reject(new Error('not used')),
      recordIn: () => Promise.reject(new Error('not used')),
    };
    const clients = new FakeOAuthClientsRepository();
    const registered = fakeOAuthClientsService({
      clients,
      refreshTokens: s.repos.refreshTokens,
      status: s.status,
      unitOfWork,
      clock: s.clock,
    });
    revocation = new TokenRevocationService(
      new TokenFailureLimiter(config, noRedis()),
      integrations,
      new AuthorizationClients(config, asReal(clients), s.clock),
      refreshTokens,
      asReal<AuditTrail>(trail),
    );
    const issued = await s.integrations.create({ label: 'ERP', role: 'admin' }, actorWith('*'));
    integration = { accessKeyId: issued.integration.accessKeyId, secret: issued.secret };
    const app = (isPublic: boolean) =>
      registered.create(
        { name: 'Shop', redirect_uris: ['https://shop.example/cb'], public: isPublic, scopes: ['*'] },
        actorWith('*'),
      );
    const confidential = await app(false);
    shop = { clientId: confidential.client.clientId, secret: confidential.secret! };
    mobile = (await app(true)).client.clientId;
  });
  afterEach(() => jest.useRealTimers());

  const signIn = (clientId = 'administration') =>
    refreshTokens.start({} as EntityManager, { userId: s.administrator.id, clientId, scope: '*' });
  const asAdministration = (token: string) => ({ token, client_id: 'administration' });
  const stillUsable = (token: string, clientId = 'administration') =>
    expect(refreshTokens.rotate(token, clientId, allow)).resolves.toBeDefined();
  const revoked = (token: string, clientId = 'administration') =>
    expect(refreshTokens.rotate(token, clientId, allow)).rejects.toMatchObject({
      description: expect.stringMatching(/revoked/),
    });

  it("revokes a refresh token's whole sign-in for the administration client, and records it", async () => {
    const { token, familyId } = await signIn();
    const { token: next } = await refreshTokens.rotate(token, 'administration', allow);
    await expect(revocation.revoke(asAdministration(next), undefined, origin)).resolves.toBeUndefined();
    await revoked(next);
    await revoked(token);
    expect(recorded).toEqual([
      {
        ...origin,
        actor: `user:${s.administrator.id}`,
        clientId: 'administration',
        action: 'sign-in.revoked',
        targetType: 'user',
        targetId: s.administrator.id,
        details: { reason: 'revocation-request', sign_in: familyId },
      },
    ]);
  });

  it.each([
    ['an unknown token', 'never-issued'],
    ['an access token', 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyOjEifQ.c2ln'],
  ])('answers %s the same, revoking and recording nothing', async (_case, token) => {
    const other = await signIn();
    await expect(revocation.revoke(asAdministration(token), undefined, origin)).resolves.toBeUndefined();
    await stillUsable(other.token);
    expect(recorded).toEqual([]);
  });

  it("never revokes another client's token: an integration has no refresh tokens to revoke", async () => {
    const { token } = await signIn();
    const body = { token, client_id: integration.accessKeyId, client_secret: integration.secret };
    await expect(revocation.revoke(body, undefined, origin)).resolves.toBeUndefined();
    await expect(
      revocation.revoke({ token }, basic(integration.accessKeyId, integration.secret), origin),
    ).resolves.toBe(undefined);
    await stillUsable(token);
    expect(recorded).toEqual([]);
  });

  it("revokes a registered application's own sign-in: a confidential one with its secret, a public one by its id", async () => {
    const confidential = [
      [{ client_id: shop.clientId, client_secret: shop.secret }, undefined],
      [{}, basic(shop.clientId, shop.secret)],
    ] as const;
    for (const [credentials, authorization] of confidential) {
      const { token, familyId } = await signIn(shop.clientId);
      await expect(revocation.revoke({ token, ...credentials }, authorization, origin)).resolves.toBeUndefined();
      await revoked(token, shop.clientId);
      expect(recorded.at(-1)).toMatchObject({ clientId: shop.clientId, details: { sign_in: familyId } });
    }
    const { token } = await signIn(mobile);
    await expect(revocation.revoke({ token, client_id: mobile }, undefined, origin)).resolves.toBeUndefined();
    await revoked(token, mobile);
    expect(recorded).toHaveLength(3);
  });

  it("answers a client that presents another client's refresh token the same, revoking nothing", async () => {
    const [shops, admins] = [await signIn(shop.clientId), await signIn()];
    const requests = [
      { token: shops.token, client_id: 'administration' },
      { token: shops.token, client_id: mobile },
      { token: admins.token, client_id: shop.clientId, client_secret: shop.secret },
      { token: admins.token, client_id: mobile },
    ];
    for (const body of requests) await expect(revocation.revoke(body, undefined, origin)).resolves.toBeUndefined();
    await stillUsable(shops.token, shop.clientId);
    await stillUsable(admins.token);
    expect(recorded).toEqual([]);
  });

  it('refuses a failed client authentication as invalid_client, revoking nothing', async () => {
    const { token } = await signIn();
    const failures: Array<[object, string | undefined, object]> = [
      [{ token, client_id: integration.accessKeyId, client_secret: 'wrong' }, undefined, {}],
      [{ token }, basic(integration.accessKeyId, 'wrong'), { 'WWW-Authenticate': expect.stringMatching(/^Basic /) }],
      [{ token, client_id: integration.accessKeyId }, undefined, {}],
      [{ token, client_id: 'FFIAAAAAAAAAAAAAAAAAAAAAA', client_secret: 's' }, undefined, {}],
      [{ token, client_id: 'administration', client_secret: 's' }, undefined, {}],
      [{ token, client_id: shop.clientId, client_secret: `${shop.secret}x` }, undefined, {}],
      [{ token, client_id: shop.clientId }, undefined, {}],
      [{ token, client_id: mobile, client_secret: 's' }, undefined, {}],
      [{ token, client_id: 'app_AAAAAAAAAAAAAAAAAAAAAA' }, undefined, {}],
    ];
    for (const [i, [body, authorization, headers]] of failures.entries()) {
      // Each from its own address, so that no failure limit is reached.
      const from = { sourceIp: `192.0.2.${10 + i}` };
      await expect(revocation.revoke(body, authorization, from)).rejects.toMatchObject({
        error: 'invalid_client',
        status: 401,
        headers,
      });
    }
    await stillUsable(token);
  });

  it('refuses a request without a token as invalid_request', async () => {
    await expect(revocation.revoke({ client_id: 'administration' }, undefined, origin)).rejects.toMatchObject({
      error: 'invalid_request',
      status: 400,
    });
  });

  it("counts failed client authentications in the token endpoint's failure limits", async () => {
    const wrong = { token: 't', client_id: integration.accessKeyId, client_secret: 'wrong' };
    for (let i = 0; i < 3; i++) await expect(revocation.revoke(wrong, undefined, origin)).rejects.toThrow();
    const right = { ...wrong, client_secret: integration.secret };
    await expect(revocation.revoke(right, undefined, origin)).rejects.toBeInstanceOf(TooManyAttemptsError);
  });
});
