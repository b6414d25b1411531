import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { IS_PUBLIC, REQUIRED_PERMISSION, type PermissionRequirement } from './auth.decorators.js';
import { InsufficientScopeError, InvalidTokenError } from './auth.errors.js';
import { grants } from './permissions.js';

/**
 * Enforces what routes declare, against the caller the host's authentication set on `req.user`: a `@Public()` route
 * is open, any other needs a caller (401), and one with `@RequirePermission()` needs that permission among its scopes
 * (403). The package's controllers carry it, so their routes are guarded whatever the application's guards; an
 * application may register it as its global guard (`{ provide: APP_GUARD, useClass: PermissionGuard }`) to guard its
 * own routes the same way, or call it from a guard of its own, after its authentication.
 */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly modules: ModuleRef,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<Request>();
    if (!request.user) throw new InvalidTokenError('An access token is required: send Authorization: Bearer <token>.');
    const requirement = this.reflector.getAllAndOverride<PermissionRequirement | undefined>(
      REQUIRED_PERMISSION,
      targets,
    );
    if (requirement === undefined) return true;
    // A derived requirement may throw first: a 404 for a path naming nothing, never a 403 for it.
    const permission = typeof requirement === 'string' ? requirement : requirement(request, this.modules);
    if (!grants(request.user.scopes, permission)) throw new InsufficientScopeError(permission);
    return true;
  }
}
