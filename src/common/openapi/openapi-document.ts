import type { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  SwaggerModule,
  type OpenAPIObject,
  type OAuthFlowObject,
  type ParameterObject,
  type RequestBodyObject,
  type SchemaObject,
  type SecuritySchemeObject,
} from '@nestjs/swagger';

import { BEARER_SCHEME, OAUTH2_SCHEME } from '@file-fields/nest';

export interface OpenApiSettings {
  /** The token endpoint, relative to the server. */
  tokenUrl: string;
}

const MAX_ID = 2_147_483_647;

/**
 * The service's OpenAPI document, built once at start: info, the server, the security schemes (OAuth 2.0 client
 * credentials and password flows at the token endpoint, and plain bearer JWTs), and every controller's operations.
 */
export function buildOpenApiDocument(app: INestApplication, settings: OpenApiSettings): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('File fields service')
    .setDescription(
      'Uploads files to the file fields of entities and resolves those fields, on every response that returns such ' +
        'entities, to file records. Access tokens come from the OAuth 2.0 token endpoint; errors are RFC 9457 ' +
        'problem details (RFC 6749 error bodies at the token endpoint).',
    )
    .setVersion('1')
    .setLicense('UNLICENSED (proprietary)', 'https://spdx.org/licenses/')
    // Relative: Swagger UI calls the address the document was read from, whatever OAUTH_ISSUER names (no CORS).
    .addServer('/')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, BEARER_SCHEME)
    .addOAuth2(
      {
        type: 'oauth2',
        description: 'Integrations use client credentials; the administration interface uses the password flow.',
        flows: {
          clientCredentials: { tokenUrl: settings.tokenUrl, scopes: {} },
          password: { tokenUrl: settings.tokenUrl, refreshUrl: settings.tokenUrl, scopes: {} },
        },
      },
      OAUTH2_SCHEME,
    )
    .build();
  // DocumentBuilder.setContact writes an empty url when given none.
  config.info.contact = { name: 'Service team', email: 'service-team@example.com' };
  // Every operation names itself (`getProduct`, `createIntegration`) in its @ApiOperation: the names become a generated
  // client's method names. The platform suite refuses Nest's default `Controller_method`.
  const document = SwaggerModule.createDocument(app, config);
  declareScopes(document);
  markPublic(document);
  typeIdParameters(document);
  admitNullReferences(document);
  nameTitledBodies(document);
  return document;
}

/** The flows list every scope an operation asks for, plus `*`: Swagger UI offers them when authorizing. */
function declareScopes(document: OpenAPIObject): void {
  const scopes: Record<string, string> = { '*': 'All permissions (administrators)' };
  for (const operation of operations(document)) {
    for (const requirement of operation.security ?? []) {
      // `*` keeps its description: an administrators-only route (rotating the webhook signing keys) asks for it.
      for (const scope of requirement[OAUTH2_SCHEME] ?? []) scopes[scope] ??= `Permission ${scope}`;
    }
  }
  const sorted = Object.fromEntries(Object.entries(scopes).sort(([a], [b]) => a.localeCompare(b)));
  const scheme = document.components?.securitySchemes?.[OAUTH2_SCHEME] as SecuritySchemeObject | undefined;
  for (const flow of Object.values(scheme?.flows ?? {}) as OAuthFlowObject[]) flow.scopes = sorted;
}

/** An operation without a security requirement (the @Public() routes) says so with `security: []`. */
function markPublic(document: OpenAPIObject): void {
  for (const operation of operations(document)) operation.security ??= [];
}

/**
 * Numeric path parameters are entity ids, parsed by ParseIdPipe: integers from 1 to 2^31-1. (The TypeScript type
 * `number` alone would give them `type: number`, which lets generated clients send 1.5.)
 */
function typeIdParameters(document: OpenAPIObject): void {
  for (const operation of operations(document)) {
    for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
      const schema = parameter.schema as SchemaObject | undefined;
      if (parameter.in === 'path' && schema?.type === 'number') {
        parameter.schema = { type: 'integer', minimum: 1, maximum: MAX_ID };
      }
    }
  }
}

/**
 * OpenAPI 3.0 has no null type, and `nullable` beside an `allOf` reference (what `@ApiProperty({ type: Dto, nullable:
 * true })` produces) does not admit null to validators, which check the reference too. Each such property becomes
 * "the reference, or a nullable string restricted to null": validators admit null, and generators write `Dto | null`
 * (openapi-typescript `Dto | (null)`). Other spellings fail one of them: without `type`, `nullable` is refused by
 * validators and `enum: [null]` alone gives hey-api `never`; with `type: object`, openapi-typescript writes
 * `Dto | (never | null)`.
 */
function admitNullReferences(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) admitNullReferences(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as SchemaObject;
  if (schema.nullable === true && schema.allOf?.length === 1 && '$ref' in schema.allOf[0]) {
    schema.oneOf = [schema.allOf[0], { type: 'string', nullable: true, enum: [null] }];
    delete schema.allOf;
    delete schema.nullable;
    delete schema.type;
  }
  for (const value of Object.values(node)) admitNullReferences(value);
}

/**
 * A request body schema with a `title` (e.g. the token request's `oneOf` per grant, which no DTO class can express)
 * becomes the component of that name: generated clients then name its type.
 */
function nameTitledBodies(document: OpenAPIObject): void {
  const schemas = (document.components ??= {}).schemas ?? {};
  for (const operation of operations(document)) {
    const body = operation.requestBody as RequestBodyObject | undefined;
    for (const media of Object.values(body?.content ?? {})) {
      const schema = media.schema as SchemaObject | undefined;
      if (!schema?.title) continue;
      const { title, ...named } = schema;
      schemas[title] = named;
      media.schema = { $ref: `#/components/schemas/${title}` };
    }
  }
  document.components.schemas = schemas;
}

function* operations(document: OpenAPIObject) {
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const) {
      const operation = item[method];
      if (operation) yield operation;
    }
  }
}
