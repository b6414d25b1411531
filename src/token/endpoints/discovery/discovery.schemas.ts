import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'JsonWebKey', description: 'A public signing key (RFC 7517)' })
export class JsonWebKeySchema {
  @ApiProperty({ example: 'EC' }) kty!: string;
  @ApiPropertyOptional({ example: 'P-256' }) crv?: string;
  @ApiPropertyOptional() x?: string;
  @ApiPropertyOptional() y?: string;
  @ApiProperty() kid!: string;
  @ApiProperty({ example: 'ES256' }) alg!: string;
  @ApiProperty({ enum: ['sig'] }) use!: string;
}

@ApiSchema({ name: 'JsonWebKeySet' })
export class JsonWebKeySetSchema {
  @ApiProperty({ type: JsonWebKeySchema, isArray: true }) keys!: JsonWebKeySchema[];
}

@ApiSchema({ name: 'AuthorizationServerMetadata', description: 'RFC 8414 metadata' })
export class AuthorizationServerMetadataSchema {
  @ApiProperty({ format: 'uri' }) issuer!: string;
  @ApiProperty({ format: 'uri' }) authorization_endpoint!: string;
  @ApiProperty({ format: 'uri' }) token_endpoint!: string;
  @ApiProperty({ format: 'uri' }) jwks_uri!: string;
  @ApiProperty({ type: [String] }) grant_types_supported!: string[];
  @ApiProperty({ type: [String] }) token_endpoint_auth_methods_supported!: string[];
  @ApiProperty({ format: 'uri' }) revocation_endpoint!: string;
  @ApiProperty({ type: [String] }) revocation_endpoint_auth_methods_supported!: string[];
  @ApiProperty({ type: [String], example: ['code'] }) response_types_supported!: string[];
  @ApiProperty({ type: [String], example: ['S256'] }) code_challenge_methods_supported!: string[];
  @ApiProperty() authorization_response_iss_parameter_supported!: boolean;
  @ApiProperty({ type: [String] }) scopes_supported!: string[];
}
