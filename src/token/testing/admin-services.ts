import type { UnitOfWork } from '@file-fields/nest';
import type { Principal } from '../../common/auth/principal.js';
import { IntegrationsService } from '../admin/integrations/integrations.service.js';
import { RolesService } from '../admin/roles/roles.service.js';
import { UsersService } from '../admin/users/users.service.js';
import type { PasswordHasher } from '../crypto/password-hasher.js';
import { Role } from '../repositories/entities/role.entity.js';
import { SubjectStatusService } from '../revocation/subject-status.service.js';
import { loadTokenConfig } from '../token.config.js';
import { noRedis } from '../../redis/testing.js';
import {
  asReal,
  FakeClock,
  FakeIntegrationsRepository,
  FakeRefreshTokensRepository,
  FakeRolesRepository,
  FakeUnitOfWork,
  FakeUsersRepository,
} from './in-memory-repositories.js';

/** Stands in for scrypt: the escalation rules do not depend on how passwords are hashed. */
const hasher = {
  hash: (password: string) => Promise.resolve(`hashed:${password}`),
  verify: (password: string, stored: string) => Promise.resolve(stored === `hashed:${password}`),
};

/** A principal holding exactly these permissions. */
export const actorWith = (...scopes: string[]): Principal => ({
  subject: 'user:99',
  clientId: 'administration',
  scopes,
});

/**
 * The administration services over in-memory repositories, seeded as the migration seeds a database: the built-in
 * `admin` role (`*`), and an administrator user.
 */
export async function adminServices() {
  const clock = new FakeClock();
  const config = loadTokenConfig({ SECRET_ROTATION_GRACE: '3600' });
  const repos = {
    roles: new FakeRolesRepository(),
    users: new FakeUsersRepository(),
    integrations: new FakeIntegrationsRepository(),
    refreshTokens: new FakeRefreshTokensRepository(),
  };
  const unitOfWork = asReal<UnitOfWork>(new FakeUnitOfWork());
  const status = new SubjectStatusService(
    asReal(repos.integrations),
    asReal(repos.users),
    asReal(repos.refreshTokens),
    config,
    clock,
    noRedis(),
  );
  const roles = new RolesService(
    asReal(repos.roles),
    asReal(repos.users),
    asReal(repos.integrations),
    unitOfWork,
    status,
  );
  const users = new UsersService(
    asReal(repos.users),
    asReal(repos.refreshTokens),
    roles,
    status,
    unitOfWork,
    clock,
    asReal<PasswordHasher>(hasher),
  );
  const integrations = new IntegrationsService(asReal(repos.integrations), roles, status, unitOfWork, config, clock);
  const admin = repos.roles.table.insert(
    Object.assign(new Role(), { name: 'admin', permissions: ['*'], builtIn: true, createdAt: new Date() }),
  );
  const administrator = await repos.users.create({ username: 'admin', passwordHash: 'x', roleId: admin.id });
  return { clock, repos, status, roles, users, integrations, adminRole: admin, administrator };
}
