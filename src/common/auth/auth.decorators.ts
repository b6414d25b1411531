import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request } from 'express';

export const IS_PUBLIC = 'auth:public';
export const REQUIRED_PERMISSION = 'auth:permission';

/** A permission (`<resource>:<read|write>`), or a function that derives it from the request (e.g. a path parameter). */
export type PermissionRequirement = string | ((request: Request) => string);

/** Opens a route to callers without a token (token endpoint, discovery documents, health). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/**
 * Declares, in one place, the permission a route needs and its OpenAPI security: a bearer token
 * whose scopes include the permission (or `*`). The global access guard enforces it before the handler runs.
 */
export function RequirePermission(permission: PermissionRequirement) {
  return applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, permission),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: 'Missing, malformed, expired or revoked access token' }),
    ApiForbiddenResponse({ description: 'The token lacks the permission' }),
  );
}

/**
 * A route that needs a valid bearer token but checks the permission itself, because the permission depends on a
 * record the handler loads (e.g. a file's entity type). The access guard lets any valid token through such a route.
 */
export function Authenticated() {
  return applyDecorators(
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: 'Missing, malformed, expired or revoked access token' }),
    ApiForbiddenResponse({ description: 'The token lacks the permission' }),
  );
}
