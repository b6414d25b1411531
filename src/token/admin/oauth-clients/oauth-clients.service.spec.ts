import type { EntityManager } from 'typeorm';
import type { UnitOfWork } from '@file-fields/nest';
import { RefreshTokensService } from '../../issuing/refresh-tokens.service.js';
import { actorWith, adminServices } from '../../testing/admin-services.js';
import { asReal, FakeUnitOfWork } from '../../testing/in-memory-repositories.js';
import { FakeAuthorizationCodesRepository, fakeOAuthClientsService } from '../../testing/oauth-client-fakes.js';
import { loadTokenConfig } from '../../token.config.js';
import { OAuthClientsService } from './oauth-clients.service.js';

describe('OAuthClientsService: what a client was issued', () => {
  let s: Awaited<ReturnType<typeof adminServices>>;
  let clients: OAuthClientsService;
  let refreshTokens: RefreshTokensService;
  let codes: FakeAuthorizationCodesRepository;

  beforeEach(async () => {
    s = await adminServices();
    const unitOfWork = asReal<UnitOfWork>(new FakeUnitOfWork());
    codes = new FakeAuthorizationCodesRepository();
    clients = fakeOAuthClientsService({
      codes,
      refreshTokens: s.repos.refreshTokens,
      status: s.status,
      unitOfWork,
      clock: s.clock,
    });
    refreshTokens = new RefreshTokensService(
      unitOfWork,
      loadTokenConfig({}),
      s.clock,
      s.status,
      asReal(s.repos.refreshTokens),
    );
  });

  const register = async () =>
    (
      await clients.create(
        { name: 'Shop', redirect_uris: ['https://shop.example/cb'], public: false, scopes: ['*'] },
        actorWith('*'),
      )
    ).client.clientId;
  /** A sign-in at `clientId` and the binding its access tokens carry. */
  const signIn = async (clientId: string) => {
    const userId = s.administrator.id;
    const started = await refreshTokens.start({} as EntityManager, { userId, clientId, scope: '*' });
    return { ...started, binding: { sub: `user:${userId}`, ver: 0, sid: started.familyId, clientId } };
  };
  const refresh = (token: string, clientId: string) => refreshTokens.rotate(token, clientId, () => Promise.resolve());

  it("deletes the client's codes and ends its sign-ins at once, leaving other clients' alone", async () => {
    const [shop, other] = [await register(), await register()];
    const [mine, theirs, admins] = [await signIn(shop), await signIn(other), await signIn('administration')];
    for (const { binding } of [mine, theirs, admins]) await expect(s.status.accepts(binding)).resolves.toBe(true);
    await codes.insert({
      ...{ codeHash: 'h', clientId: shop, redirectUri: 'https://shop.example/cb' },
      ...{ codeChallenge: 'c', userId: 1, scope: '', createdAt: 0, expiresAt: 1 },
    });

    await clients.remove(shop, actorWith('*'));

    expect(codes.rows).toEqual([]);
    await expect(s.status.accepts(mine.binding)).resolves.toBe(false);
    await expect(refresh(mine.token, shop)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(s.status.accepts(theirs.binding)).resolves.toBe(true);
    await expect(refresh(theirs.token, other)).resolves.toMatchObject({ familyId: theirs.familyId });
    await expect(refresh(admins.token, 'administration')).resolves.toMatchObject({ familyId: admins.familyId });
  });

  it('leaves the sign-ins standing when the secret is rotated (a new credential, not a sign-out)', async () => {
    const shop = await register();
    const { token, familyId, binding } = await signIn(shop);
    await clients.rotateSecret(shop, actorWith('*'));
    await expect(s.status.accepts(binding)).resolves.toBe(true);
    await expect(refresh(token, shop)).resolves.toMatchObject({ familyId });
  });
});
