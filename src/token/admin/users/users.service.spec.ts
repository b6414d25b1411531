import { TokenAdminErrorCode } from '../../token-admin.errors.js';
import { actorWith, adminServices } from '../../testing/admin-services.js';

describe('UsersService', () => {
  let s: Awaited<ReturnType<typeof adminServices>>;
  let readerRole: number;
  beforeEach(async () => {
    s = await adminServices();
    readerRole = (await s.roles.create({ name: 'reader', permissions: ['product:read'] }, actorWith('*'))).id;
  });

  const input = (role: string) => ({ username: 'new', password: 'long-enough-password', role });

  it('gives a new user only a role whose every permission the actor holds', async () => {
    const actor = actorWith('user:write', 'product:read');
    await expect(s.users.create(input('admin'), actor)).rejects.toMatchObject({
      code: TokenAdminErrorCode.PrivilegeEscalation,
      message: 'To give a user the role "admin" you must hold every permission involved; missing: *.',
    });
    await expect(s.users.count()).resolves.toBe(1);
    await expect(s.users.create(input('reader'), actor)).resolves.toMatchObject({
      username: 'new',
      roleId: readerRole,
    });
  });

  it('refuses a taken username', async () => {
    await expect(s.users.create({ ...input('reader'), username: 'admin' }, actorWith('*'))).rejects.toMatchObject({
      code: TokenAdminErrorCode.NameTaken,
    });
  });

  it('changes or deletes only users whose every permission the actor holds', async () => {
    const actor = actorWith('user:write', 'product:read');
    const id = s.administrator.id;
    await expect(s.users.update(id, { password: 'another-password' }, actor)).rejects.toThrow(
      /To change the user "admin".*missing: \*/,
    );
    await expect(s.users.remove(id, actor)).rejects.toThrow(/To delete the user "admin"/);
  });

  it('a new password ends the live tokens and every sign-in of the user', async () => {
    const user = await s.users.create(input('reader'), actorWith('*'));
    const sid = 'family-1';
    await s.repos.refreshTokens.insert({
      ...{ tokenHash: 'h', familyId: sid, userId: user.id, clientId: 'administration', scope: '', createdAt: 0 },
      ...{ idleExpiresAt: Infinity, absoluteExpiresAt: Infinity, usedAt: null, revokedAt: null },
    });
    await expect(s.status.accepts({ sub: `user:${user.id}`, ver: 0, sid })).resolves.toBe(true);
    const changed = await s.users.update(user.id, { password: 'another-password' }, actorWith('*'));
    expect(changed).toMatchObject({ tokenVersion: 1, passwordHash: 'hashed:another-password' });
    await expect(s.repos.refreshTokens.familyRevoked(sid)).resolves.toBe(true);
    await expect(s.status.accepts({ sub: `user:${user.id}`, ver: 0, sid })).resolves.toBe(false);
  });

  it('keeps at least one user with *', async () => {
    const last = TokenAdminErrorCode.LastAdministrator;
    const id = s.administrator.id;
    await expect(s.users.remove(id, actorWith('*'))).rejects.toMatchObject({ code: last });
    await expect(s.users.update(id, { role: 'reader' }, actorWith('*'))).rejects.toMatchObject({ code: last });
    await s.users.create({ ...input('admin'), username: 'second' }, actorWith('*'));
    await s.users.remove(id, actorWith('*'));
    await expect(s.users.get(id)).rejects.toMatchObject({ status: 404, message: `User ${id} does not exist.` });
  });
});
