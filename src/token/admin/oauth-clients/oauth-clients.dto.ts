import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { PERMISSION } from '@file-fields/nest';
import { IsOmittable } from '../../../common/dto/is-omittable.js';
import type { OAuthClient } from '../../repositories/entities/oauth-client.entity.js';
import { defaultScopesOf } from '../../credentials/client-scopes.js';
import { IsNotAdministrationLookalike } from './client-names.js';
import { IsRedirectUris, MAX_REDIRECT_URI_LENGTH, MAX_REDIRECT_URIS } from './redirect-uris.js';

const NAME_DOC = {
  example: 'Shop front',
  maxLength: 200,
  description:
    'Shown on the sign-in and consent pages ("to continue to …"), with the client_id and the redirect host. A name ' +
    'that could pass for the built-in administration interface ("Administration", "Admin UI"…) is refused.',
};
const SCOPES_DOC: ApiPropertyOptions = {
  type: [String],
  minItems: 1,
  maxItems: 200,
  example: ['product:read', 'article:read'],
  description:
    'The ceiling: no token issued to the client carries a permission outside it, whoever signs in. Each one from ' +
    '`GET /api/permissions`, and held by whoever registers or changes the client (`*` only by a holder of `*`): ' +
    '403 `privilege-escalation` otherwise.',
};
const DEFAULT_SCOPES_DOC: ApiPropertyOptions = {
  type: [String],
  nullable: true,
  maxItems: 200,
  example: ['product:read'],
  description: 'What a request without `scope` asks for: a part of `scopes`. Absent or null: all of `scopes`.',
};
const PERMISSION_RULE = { each: true, message: 'each permission must be <resource>:<read|write> or *' };

/**
 * A list of at most 200 distinct permissions, at least `minItems` of them. Listed last check first: applyDecorators
 * applies them in order, stacked decorators bottom-up, and a field's errors come in the order its checks were applied.
 */
const IsPermissionList = (minItems?: number) =>
  applyDecorators(
    Matches(PERMISSION, PERMISSION_RULE),
    ArrayUnique(),
    ArrayMaxSize(200),
    ...(minItems === undefined ? [] : [ArrayMinSize(minItems)]),
    IsArray(),
  );
const REDIRECT_URIS_DOC: ApiPropertyOptions = {
  type: [String],
  minItems: 1,
  maxItems: MAX_REDIRECT_URIS,
  example: ['https://shop.example/oauth/callback'],
  description:
    'Where the sign-in page may send the browser back, compared by exact string: https, or http on 127.0.0.1, ' +
    'localhost or [::1] (RFC 8252); no fragment, no user info',
};

@ApiSchema({ name: 'CreateOAuthClient' })
export class CreateOAuthClientDto {
  @ApiProperty(NAME_DOC)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @IsNotAdministrationLookalike()
  name!: string;

  @ApiProperty(REDIRECT_URIS_DOC)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_REDIRECT_URIS)
  @ArrayUnique()
  @MaxLength(MAX_REDIRECT_URI_LENGTH, { each: true })
  @IsRedirectUris()
  redirect_uris!: string[];

  @ApiProperty({
    example: false,
    description: 'true: a public client (a browser or native app) without a secret; false: a confidential one',
  })
  @IsBoolean()
  public!: boolean;

  @ApiProperty(SCOPES_DOC)
  @IsPermissionList(1)
  scopes!: string[];

  @ApiPropertyOptional(DEFAULT_SCOPES_DOC)
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsPermissionList()
  default_scopes?: string[] | null;
}

@ApiSchema({ name: 'UpdateOAuthClient' })
export class UpdateOAuthClientDto {
  @ApiPropertyOptional(NAME_DOC)
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  @IsNotAdministrationLookalike()
  name?: string;

  @ApiPropertyOptional(REDIRECT_URIS_DOC)
  @IsOmittable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_REDIRECT_URIS)
  @ArrayUnique()
  @MaxLength(MAX_REDIRECT_URI_LENGTH, { each: true })
  @IsRedirectUris()
  redirect_uris?: string[];

  @ApiPropertyOptional(SCOPES_DOC)
  @IsOmittable()
  @IsPermissionList(1)
  scopes?: string[];

  @ApiPropertyOptional(DEFAULT_SCOPES_DOC)
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsPermissionList()
  default_scopes?: string[] | null;
}

@ApiSchema({ name: 'OAuthClient', description: 'An application registered for the authorization code flow' })
export class OAuthClientDto {
  @ApiProperty({ example: 'app_Xq3bV0m7hZ1kLw9pRt2sYa' }) client_id!: string;
  @ApiProperty({ example: 'Shop front' }) name!: string;
  @ApiProperty({ type: [String], example: ['https://shop.example/oauth/callback'] }) redirect_uris!: string[];
  @ApiProperty({ example: false, description: 'true: no secret (PKCE only); false: authenticates with its secret' })
  public!: boolean;
  @ApiProperty({ type: [String], example: ['product:read', 'article:read'], description: 'The scope ceiling' })
  scopes!: string[];
  @ApiProperty({
    type: [String],
    example: ['product:read'],
    description: 'What a request without `scope` gets (the ceiling when none was set)',
  })
  default_scopes!: string[];
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Until when the secret replaced by the last rotation still works (SECRET_ROTATION_GRACE)',
  })
  previous_secret_expires_at?: string;
  @ApiPropertyOptional({
    example: 'ffcs_51BoCDHeN-ynp8dPl_AqOC78_nC-ub1MVBvSZDRQyvA',
    description: 'The client_secret of a confidential client: only in the answer to creation and rotation, never again',
  })
  client_secret?: string;
  @ApiProperty({ example: 'user:1', description: 'Who registered it' }) created_by!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  /** `now`: epoch ms, to tell whether the previous secret still works. */
  static from(client: OAuthClient, now: number, secret?: string): OAuthClientDto {
    const previousUntil = client.previousSecretHash !== null ? (client.previousSecretExpiresAt ?? 0) : 0;
    return Object.assign(new OAuthClientDto(), {
      client_id: client.clientId,
      name: client.name,
      redirect_uris: client.redirectUris,
      public: client.public,
      scopes: client.scopes,
      default_scopes: defaultScopesOf(client),
      ...(previousUntil > now ? { previous_secret_expires_at: new Date(previousUntil).toISOString() } : {}),
      ...(secret ? { client_secret: secret } : {}),
      created_by: client.createdBy,
      created_at: client.createdAt.toISOString(),
      updated_at: client.updatedAt.toISOString(),
    });
  }
}

@ApiSchema({ name: 'OAuthClientPage', description: 'A page of registered OAuth clients' })
export class OAuthClientPageDto {
  @ApiProperty({ type: [OAuthClientDto] }) items!: OAuthClientDto[];
  @ApiProperty({ type: 'integer', description: 'How many match, over all pages', example: 1 }) total!: number;
  @ApiProperty({ type: 'integer', example: 20 }) limit!: number;
  @ApiProperty({ type: 'integer', example: 0 }) offset!: number;
}
