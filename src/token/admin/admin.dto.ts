import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
} from 'class-validator';
import { IsOmittable } from '../../common/dto/is-omittable.js';
import { PASSWORD_MIN_LENGTH, USERNAME_PATTERN, USERNAME_RULE } from '../account-rules.js';
import { PERMISSION } from '@file-fields/nest';

const NAME = /^[a-z][a-z0-9_-]{0,63}$/;

@ApiSchema({ name: 'CreateRole' })
export class CreateRoleDto {
  @ApiProperty({ example: 'catalog-reader' })
  @Matches(NAME, { message: 'name must be lower-case letters, digits, - or _' })
  name!: string;

  @ApiProperty({ example: ['product:read', 'article:read'], description: '`<resource>:<read|write>` or `*`' })
  @IsArray()
  @ArrayMaxSize(200)
  @Matches(PERMISSION, { each: true, message: 'each permission must be <resource>:<read|write> or *' })
  permissions!: string[];
}

@ApiSchema({ name: 'UpdateRole' })
export class UpdateRoleDto {
  @ApiPropertyOptional()
  @IsOmittable()
  @Matches(NAME, { message: 'name must be lower-case letters, digits, - or _' })
  name?: string;

  @ApiPropertyOptional({ type: [String] })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(200)
  @Matches(PERMISSION, { each: true, message: 'each permission must be <resource>:<read|write> or *' })
  permissions?: string[];
}

@ApiSchema({ name: 'CreateUser' })
export class CreateUserDto {
  @ApiProperty({ example: 'editor' })
  @Matches(USERNAME_PATTERN, { message: `username ${USERNAME_RULE}` })
  username!: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH })
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(1024)
  password!: string;

  @ApiProperty({ example: 'admin', description: 'Role name' })
  @IsString()
  @IsNotEmpty()
  role!: string;
}

@ApiSchema({ name: 'UpdateUser' })
export class UpdateUserDto {
  @ApiPropertyOptional({ minLength: PASSWORD_MIN_LENGTH })
  @IsOmittable()
  @IsString()
  @MinLength(PASSWORD_MIN_LENGTH)
  @MaxLength(1024)
  password?: string;

  @ApiPropertyOptional()
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  role?: string;
}

/** The lifecycle fields an integration takes on create and on change; `null` clears one. */
class IntegrationLifecycleDto {
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2027-01-01T00:00:00Z',
    description: 'When the integration stops working (in the future); null: never',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'expires_at must be an ISO 8601 date-time' })
  expires_at?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'team-erp@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  owner?: string | null;
}

@ApiSchema({ name: 'CreateIntegration' })
export class CreateIntegrationDto extends IntegrationLifecycleDto {
  @ApiProperty({ example: 'ERP sync' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  label!: string;

  @ApiProperty({ example: 'catalog-reader', description: 'Role name' })
  @IsString()
  @IsNotEmpty()
  role!: string;
}

@ApiSchema({ name: 'UpdateIntegration' })
export class UpdateIntegrationDto extends IntegrationLifecycleDto {
  @ApiPropertyOptional()
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  label?: string;

  @ApiPropertyOptional()
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  role?: string;

  @ApiPropertyOptional({ description: 'false disables the integration: its tokens stop working at once' })
  @IsOmittable()
  @IsBoolean()
  active?: boolean;
}
