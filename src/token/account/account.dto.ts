import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { PASSWORD_MIN_LENGTH } from '../account-rules.js';
import type { CurrentAccount } from './current-account.service.js';

/** A role as the caller's own account names it. */
@ApiSchema({ name: 'RoleReference' })
export class RoleReferenceDto {
  @ApiProperty({ type: 'integer', example: 1 }) id!: number;
  @ApiProperty({ example: 'admin' }) name!: string;
}

/** Who the caller is, by its access token. */
@ApiSchema({ name: 'Me' })
export class MeDto {
  @ApiProperty({ enum: ['user', 'integration'], example: 'user' }) kind!: 'user' | 'integration';
  @ApiProperty({ type: 'integer', example: 1, description: 'The id of the user or the integration' }) id!: number;
  @ApiProperty({ example: 'admin', description: "A user's username, an integration's label" }) name!: string;
  @ApiProperty({ type: RoleReferenceDto, nullable: true, description: 'The role of the user or the integration' })
  role!: RoleReferenceDto | null;
  @ApiProperty({
    example: ['product:read', 'product:write'],
    description: "What this token's scope grants: `*`, or `<resource>:<read|write>` permissions",
  })
  permissions!: string[];

  static from(account: CurrentAccount, permissions: string[]): MeDto {
    const { kind, id, name } = account;
    const role =
      account.role && Object.assign(new RoleReferenceDto(), { id: account.role.id, name: account.role.name });
    return Object.assign(new MeDto(), { kind, id, name, role, permissions });
  }
}

@ApiSchema({ name: 'ChangeOwnPassword' })
export class ChangeOwnPasswordDto {
  @ApiProperty({ description: 'The password the user signs in with now' })
  @IsString()
  @MaxLength(1024)
  current_password!: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: 1024 })
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(1024)
  new_password!: string;
}
