import { TokenAdminErrorCode } from '../../token-admin.errors.js';
import { actorWith, adminServices } from '../../testing/admin-services.js';

const ROLE_WRITER = ['role:write', 'product:read', 'product:write'];

describe('RolesService', () => {
  let s: Awaited<ReturnType<typeof adminServices>>;
  beforeEach(async () => {
    s = await adminServices();
  });

  it('creates a role only with permissions the actor holds', async () => {
    const actor = actorWith(...ROLE_WRITER);
    await expect(s.roles.create({ name: 'hooks', permissions: ['webhook:write'] }, actor)).rejects.toMatchObject({
      code: TokenAdminErrorCode.PrivilegeEscalation,
      extensions: { missing_permissions: ['webhook:write'] },
    });
    const created = await s.roles.create({ name: 'reader', permissions: ['product:read', 'product:read'] }, actor);
    expect(created).toMatchObject({ name: 'reader', permissions: ['product:read'], builtIn: false });
    expect((await s.roles.page({ limit: 20, offset: 0 })).items.map((role) => role.name)).toEqual(['admin', 'reader']);
  });

  it('refuses a name that is taken', async () => {
    await expect(s.roles.create({ name: 'admin', permissions: [] }, actorWith('*'))).rejects.toMatchObject({
      code: TokenAdminErrorCode.NameTaken,
    });
  });

  it('changes a role only if the actor holds its old and its new permissions', async () => {
    const role = await s.roles.create({ name: 'editor', permissions: ['product:write'] }, actorWith('*'));
    const actor = actorWith('role:write', 'product:read');
    await expect(s.roles.update(role.id, { permissions: ['product:read'] }, actor)).rejects.toMatchObject({
      extensions: { missing_permissions: ['product:write'] },
    });
    await expect(s.roles.update(role.id, { permissions: ['article:read'] }, actorWith(...ROLE_WRITER))).rejects.toThrow(
      /missing: article:read/,
    );
  });

  it("narrowing a role ends its holders' live tokens", async () => {
    const role = await s.roles.create(
      { name: 'editor', permissions: ['product:read', 'product:write'] },
      actorWith('*'),
    );
    const user = await s.repos.users.create({ username: 'ed', passwordHash: 'x', roleId: role.id });
    const other = await s.repos.users.create({ username: 'al', passwordHash: 'x', roleId: s.adminRole.id });
    await expect(s.status.accepts({ sub: `user:${user.id}`, ver: 0 })).resolves.toBe(true);

    await s.roles.update(role.id, { permissions: ['product:read', 'product:write', 'article:read'] }, actorWith('*'));
    expect((await s.repos.users.findById(user.id))?.tokenVersion).toBe(0);
    await s.roles.update(role.id, { permissions: ['product:read'] }, actorWith('*'));
    expect((await s.repos.users.findById(user.id))?.tokenVersion).toBe(1);
    expect((await s.repos.users.findById(other.id))?.tokenVersion).toBe(0);
    await expect(s.status.accepts({ sub: `user:${user.id}`, ver: 0 })).resolves.toBe(false);
  });

  it('never changes or deletes the built-in role', async () => {
    const built = TokenAdminErrorCode.BuiltInRole;
    await expect(s.roles.update(s.adminRole.id, { name: 'root' }, actorWith('*'))).rejects.toMatchObject({
      code: built,
    });
    await expect(s.roles.remove(s.adminRole.id, actorWith('*'))).rejects.toMatchObject({ code: built });
  });

  it('deletes a role only while nobody has it', async () => {
    const role = await s.roles.create({ name: 'reader', permissions: ['product:read'] }, actorWith('*'));
    const user = await s.repos.users.create({ username: 'rita', passwordHash: 'x', roleId: role.id });
    await expect(s.roles.remove(role.id, actorWith('*'))).rejects.toMatchObject({
      code: TokenAdminErrorCode.RoleInUse,
      message: 'Role "reader" is given to 1 user and no integrations: give them another role first.',
    });
    await s.repos.users.delete(user.id);
    await s.roles.remove(role.id, actorWith('*'));
    await expect(s.roles.get(role.id)).rejects.toMatchObject({
      status: 404,
      message: `Role ${role.id} does not exist.`,
    });
  });

  it('refuses to take * from the last role that gives a user *', async () => {
    const root = await s.roles.create({ name: 'root', permissions: ['*'] }, actorWith('*'));
    await s.repos.users.save({ ...s.administrator, roleId: root.id });
    await expect(s.roles.update(root.id, { permissions: ['product:read'] }, actorWith('*'))).rejects.toMatchObject({
      code: TokenAdminErrorCode.LastAdministrator,
    });
  });
});
