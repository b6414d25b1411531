import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import type { Integration } from '../repositories/entities/integration.entity.js';
import type { Role } from '../repositories/entities/role.entity.js';
import type { User } from '../repositories/entities/user.entity.js';
import type { CatalogedPermission } from '../credentials/permission-catalog.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The JSON shape of a role: exactly these snake_case names. */
@ApiSchema({ name: 'Role' })
export class RoleDto {
  @ApiProperty({ type: 'integer', example: 3 }) id!: number;
  @ApiProperty({ example: 'catalog-reader' }) name!: string;
  @ApiProperty({ example: ['product:read', 'article:read'], description: '`<resource>:<read|write>` or `*`' })
  permissions!: string[];
  @ApiProperty({ example: false, description: 'Seeded by the service; cannot be deleted' }) built_in!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  static from(role: Role): RoleDto {
    return Object.assign(new RoleDto(), {
      id: role.id,
      name: role.name,
      permissions: role.permissions,
      built_in: role.builtIn,
      created_at: role.createdAt.toISOString(),
      updated_at: role.updatedAt.toISOString(),
    });
  }
}

/** The JSON shape of a user of the administration interface: never its password hash. */
@ApiSchema({ name: 'User' })
export class UserDto {
  @ApiProperty({ type: 'integer', example: 2 }) id!: number;
  @ApiProperty({ example: 'editor' }) username!: string;
  @ApiProperty({ example: 'admin', description: 'Role name' }) role!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  static from(user: User, roleName: string): UserDto {
    return Object.assign(new UserDto(), {
      id: user.id,
      username: user.username,
      role: roleName,
      created_at: user.createdAt.toISOString(),
      updated_at: user.updatedAt.toISOString(),
    });
  }
}

/** An integration as the API shows it: never its secret (except `secret_access_key` right after creation or rotation). */
@ApiSchema({ name: 'Integration' })
export class IntegrationDto {
  @ApiProperty({ type: 'integer', example: 1 }) id!: number;
  @ApiProperty({ example: 'ERP sync' }) label!: string;
  @ApiProperty({ example: 'catalog-reader', description: 'Role name' }) role!: string;
  @ApiProperty({ example: 'FFIAQ3J5K7M2N4P6R7T2V4X6', description: 'The client_id of the client credentials grant' })
  access_key_id!: string;
  @ApiPropertyOptional({
    example: 'ffsk_51BoCDHeN-ynp8dPl_AqOC78_nC-ub1MVBvSZDRQyvA',
    description: 'The client_secret: only in the answer to creation and to rotation, never again',
  })
  secret_access_key?: string;
  @ApiProperty({ example: true, description: 'false: its tokens stop working at once' }) active!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Last token issued; null if never' })
  last_used_at!: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'End of the grace period of the previous secret after a rotation; null when there is none',
  })
  previous_secret_expires_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the integration stops working (no new tokens, live ones refused); null: never',
  })
  expires_at!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'team-erp@example.com', description: 'Who answers for it' })
  owner!: string | null;
  @ApiProperty({ example: false, description: 'Whether a rotated-out secret still works (its grace period lasts)' })
  previous_secret_active!: boolean;

  /** `previousSecretActive`: whether the previous secret's grace period lasts, by the injected clock. */
  static from(
    integration: Integration,
    roleName: string,
    previousSecretActive: boolean,
    secret?: string,
  ): IntegrationDto {
    return Object.assign(new IntegrationDto(), {
      id: integration.id,
      label: integration.label,
      role: roleName,
      access_key_id: integration.accessKeyId,
      ...(secret ? { secret_access_key: secret } : {}),
      active: integration.active,
      last_used_at: iso(integration.lastUsedAt),
      previous_secret_expires_at: iso(integration.previousSecretExpiresAt),
      created_at: integration.createdAt.toISOString(),
      updated_at: integration.updatedAt.toISOString(),
      expires_at: iso(integration.expiresAt),
      owner: integration.owner,
      previous_secret_active: previousSecretActive,
    });
  }
}

/** A permission a role may hold, for the role editor's picker. */
@ApiSchema({ name: 'Permission' })
export class PermissionDto {
  @ApiProperty({ example: 'product:read', description: '`<resource>:<read|write>`, or `*` for all' })
  permission!: string;
  @ApiProperty({ example: 'product', description: '`*` for the permission `*`' }) resource!: string;
  @ApiProperty({ enum: ['read', 'write', '*'], example: 'read' }) access!: 'read' | 'write' | '*';
  @ApiProperty({ example: 'Read products and product files', description: 'What it opens, for a person' })
  description!: string;

  static from(entry: CatalogedPermission): PermissionDto {
    return Object.assign(new PermissionDto(), entry);
  }
}
