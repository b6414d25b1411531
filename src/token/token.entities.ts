import { Integration } from './entities/integration.entity.js';
import { RefreshToken } from './entities/refresh-token.entity.js';
import { Role } from './entities/role.entity.js';
import { SigningKey } from './entities/signing-key.entity.js';
import { User } from './entities/user.entity.js';

/** Entities of the TokenModule (listed in src/database/entities.ts). */
export const tokenEntities: Function[] = [Role, User, Integration, RefreshToken, SigningKey];
