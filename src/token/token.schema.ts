import type { FeatureSchema } from '@file-fields/nest';
import { OAuthClient } from './repositories/entities/oauth-client.entity.js';
import { AuthorizationCode } from './repositories/entities/authorization-code.entity.js';
import { Integration } from './repositories/entities/integration.entity.js';
import { RefreshToken } from './repositories/entities/refresh-token.entity.js';
import { Role } from './repositories/entities/role.entity.js';
import { SigningKey } from './repositories/entities/signing-key.entity.js';
import { User } from './repositories/entities/user.entity.js';
import { Token1763800001000 } from './migrations/1763800001000-token.js';
import { IntegrationTokenVersion1763800003000 } from './migrations/1763800003000-integration-token-version.js';
import { IntegrationLifecycle1763800004000 } from './migrations/1763800004000-integration-lifecycle.js';
import { SigningKeyRotation1763800005000 } from './migrations/1763800005000-signing-key-rotation.js';
import { EncryptSigningKeys1763800006000 } from './migrations/1763800006000-encrypt-signing-keys.js';
import { AuthorizationCodes1763800012000 } from './migrations/1763800012000-authorization-codes.js';
import { OAuthClients1763800013900 } from './migrations/1763800013900-oauth-clients.js';
import { RefreshTokenClient1763800016000 } from './migrations/1763800016000-refresh-token-client.js';
import { OAuthClientScopes1763800017000 } from './migrations/1763800017000-oauth-client-scopes.js';
import { SigningKeyPurpose1763800018000 } from './migrations/1763800018000-signing-key-purpose.js';
import { OAuthGrant } from './repositories/entities/oauth-grant.entity.js';

/** The TokenModule's tables and the migrations that make them. */
export const tokenSchema: FeatureSchema = {
  entities: [Role, User, Integration, RefreshToken, SigningKey, AuthorizationCode, OAuthClient, OAuthGrant],
  migrations: [
    Token1763800001000,
    IntegrationTokenVersion1763800003000,
    IntegrationLifecycle1763800004000,
    SigningKeyRotation1763800005000,
    EncryptSigningKeys1763800006000,
    AuthorizationCodes1763800012000,
    OAuthClients1763800013900,
    RefreshTokenClient1763800016000,
    OAuthClientScopes1763800017000,
    SigningKeyPurpose1763800018000,
  ],
};
