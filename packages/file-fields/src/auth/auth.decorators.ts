import { applyDecorators, SetMetadata, type Type } from '@nestjs/common';
import { ApiBearerAuth, ApiOAuth2 } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiProblems } from '../openapi/api-problems.js';

/** The security scheme names protected operations refer to; the host's OpenAPI document declares both. */
export const BEARER_SCHEME = 'bearer';
export const OAUTH2_SCHEME = 'oauth2';

export const IS_PUBLIC = 'auth:public';
export const REQUIRED_PERMISSION = 'auth:permission';

/** How a derived requirement finds a provider of any module (e.g. a registry of what a path parameter may name). */
interface ProviderLookup {
  get<T>(type: Type<T>, options: { strict: false }): T;
}

/**
 * A permission (`<resource>:<read|write>`), or a function that derives it from the request (e.g. a path parameter).
 * The function runs before the permission is checked: it may throw a DomainError (a 404 for a path naming nothing),
 * so that a made-up name is never answered as a permission the caller lacks.
 */
export type PermissionRequirement = string | ((request: Request, providers: ProviderLookup) => string);

/** Opens a route to callers without a token (token endpoint, discovery documents, health). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/**
 * Declares, in one place, the permission a route needs and its OpenAPI security: a bearer token
 * whose scopes include the permission (or `*`). The global access guard enforces it before the handler runs.
 */
export function RequirePermission(permission: PermissionRequirement) {
  return applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, permission),
    ApiTokenSecurity(typeof permission === 'string' ? [permission] : []),
  );
}

/**
 * A route that needs a valid bearer token but checks the permission itself, because the permission depends on a
 * record the handler loads (e.g. a file's entity type). The access guard lets any valid token through such a route.
 */
export function Authenticated() {
  return ApiTokenSecurity([]);
}

/**
 * The OpenAPI side of a protected route: a bearer access token, obtained with either OAuth 2.0 flow and holding
 * `scopes` (a permission derived from the path lists none), or refused with 401 / 403 problem details.
 */
function ApiTokenSecurity(scopes: string[]): MethodDecorator & ClassDecorator {
  // @nestjs/swagger's ApiSecurity adds to a list it keeps between uses: one instance put on several methods (as the
  // catalog controllers do) would repeat its requirement on each later method. A fresh one for each use.
  return <T>(target: object, key?: string | symbol, descriptor?: TypedPropertyDescriptor<T>) =>
    applyDecorators(ApiBearerAuth(BEARER_SCHEME), ApiOAuth2(scopes, OAUTH2_SCHEME), ApiProblems(401, 403))(
      target,
      key,
      descriptor,
    );
}
