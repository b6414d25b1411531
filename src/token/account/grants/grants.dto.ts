import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { pageSchemaOf } from '@file-fields/nest';
import type { GrantView } from './oauth-grants.service.js';

/** An application the caller allowed to act for them, and what they allowed. */
@ApiSchema({ name: 'Grant', description: 'A consent the caller gave to a registered application' })
export class GrantDto {
  @ApiProperty({ example: 'app_Xq3bV0m7hZ1kLw9pRt2sYa' }) client_id!: string;
  @ApiProperty({ example: 'Shop front' }) client_name!: string;
  @ApiProperty({
    example: 'shop.example',
    description: 'Where the application receives sign-ins: the host of each of its redirect URIs, comma-separated',
  })
  redirect_host!: string;
  @ApiProperty({ type: [String], example: ['product:read'], description: 'The permissions allowed to it' })
  scopes!: string[];
  @ApiProperty({ format: 'date-time', description: 'When the caller last allowed it' }) granted_at!: string;

  static from(grant: GrantView): GrantDto {
    return Object.assign(new GrantDto(), {
      client_id: grant.clientId,
      client_name: grant.clientName,
      redirect_host: grant.redirectHost,
      scopes: grant.scopes,
      granted_at: new Date(grant.grantedAt).toISOString(),
    });
  }
}

export const GrantPageDto = pageSchemaOf(GrantDto, 'Grant', "A page of the caller's grants, the latest first");
