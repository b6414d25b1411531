import { IntegrationsRepository } from './integrations.repository.js';
import { RefreshTokensRepository } from './refresh-tokens.repository.js';
import { RolesRepository } from './roles.repository.js';
import { SigningKeysRepository } from './signing-keys.repository.js';
import { UsersRepository } from './users.repository.js';

/** Every repository of the TokenModule, provided alike by the service and by the command line. */
export const tokenRepositories = [
  RolesRepository,
  UsersRepository,
  IntegrationsRepository,
  RefreshTokensRepository,
  SigningKeysRepository,
];
