import { ApiProperty, ApiPropertyOptional, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsString,
  MaxLength,
} from 'class-validator';
import { IsOmittable } from '../../../common/dto/is-omittable.js';
import type { OAuthClient } from './oauth-client.entity.js';
import { IsRedirectUris, MAX_REDIRECT_URI_LENGTH, MAX_REDIRECT_URIS } from './redirect-uris.js';

const NAME_DOC = {
  example: 'Shop front',
  maxLength: 200,
  description: 'Shown on the sign-in page ("to continue to …")',
};
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
}

@ApiSchema({ name: 'UpdateOAuthClient' })
export class UpdateOAuthClientDto {
  @ApiPropertyOptional(NAME_DOC)
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
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
}

@ApiSchema({ name: 'OAuthClient', description: 'An application registered for the authorization code flow' })
export class OAuthClientDto {
  @ApiProperty({ example: 'app_Xq3bV0m7hZ1kLw9pRt2sYa' }) client_id!: string;
  @ApiProperty({ example: 'Shop front' }) name!: string;
  @ApiProperty({ type: [String], example: ['https://shop.example/oauth/callback'] }) redirect_uris!: string[];
  @ApiProperty({ example: false, description: 'true: no secret (PKCE only); false: authenticates with its secret' })
  public!: boolean;
  @ApiPropertyOptional({
    example: 'ffcs_51BoCDHeN-ynp8dPl_AqOC78_nC-ub1MVBvSZDRQyvA',
    description: 'The client_secret of a confidential client: only in the answer to creation and rotation, never again',
  })
  client_secret?: string;
  @ApiProperty({ example: 'user:1', description: 'Who registered it' }) created_by!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  static from(client: OAuthClient, secret?: string): OAuthClientDto {
    return Object.assign(new OAuthClientDto(), {
      client_id: client.clientId,
      name: client.name,
      redirect_uris: client.redirectUris,
      public: client.public,
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
