import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
} from 'class-validator';

const NAME = /^[a-z][a-z0-9_-]{0,63}$/;
const USERNAME = /^[A-Za-z0-9._-]{1,64}$/;
const PERMISSION = /^(\*|[a-z][a-z0-9_-]{0,63}:(read|write))$/;
const omittable = () => ValidateIf((_object, value) => value !== undefined);

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

export class UpdateRoleDto {
  @ApiPropertyOptional()
  @omittable()
  @Matches(NAME, { message: 'name must be lower-case letters, digits, - or _' })
  name?: string;

  @ApiPropertyOptional({ type: [String] })
  @omittable()
  @IsArray()
  @ArrayMaxSize(200)
  @Matches(PERMISSION, { each: true, message: 'each permission must be <resource>:<read|write> or *' })
  permissions?: string[];
}

export class CreateUserDto {
  @ApiProperty({ example: 'editor' })
  @Matches(USERNAME, { message: 'username must be 1-64 letters, digits, dots, dashes or underscores' })
  username!: string;

  @ApiProperty({ minLength: 12 })
  @IsString()
  @MinLength(12)
  @MaxLength(1024)
  password!: string;

  @ApiProperty({ example: 'admin', description: 'Role name' })
  @IsString()
  @IsNotEmpty()
  role!: string;
}

export class UpdateUserDto {
  @ApiPropertyOptional({ minLength: 12 })
  @omittable()
  @IsString()
  @MinLength(12)
  @MaxLength(1024)
  password?: string;

  @ApiPropertyOptional()
  @omittable()
  @IsString()
  @IsNotEmpty()
  role?: string;
}

export class CreateIntegrationDto {
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

export class UpdateIntegrationDto {
  @ApiPropertyOptional()
  @omittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  label?: string;

  @ApiPropertyOptional()
  @omittable()
  @IsString()
  @IsNotEmpty()
  role?: string;

  @ApiPropertyOptional({ description: 'false disables the integration: its tokens stop working at once' })
  @omittable()
  @IsBoolean()
  active?: boolean;
}
