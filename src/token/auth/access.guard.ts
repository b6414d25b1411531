import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { IS_PUBLIC, InvalidTokenError, PermissionGuard } from '@file-fields/nest';
import type { Principal } from '../../common/auth/principal.js';

/**
 * The global guard: every route needs a valid bearer token unless it is @Public(), and the token's scope must
 * include the route's @RequirePermission() (checked by @file-fields/nest's PermissionGuard, once passport has set
 * `req.user`). Runs before pipes and handlers, so no upload byte is read without it.
 */
@Injectable()
export class AccessGuard extends AuthGuard('bearer') {
  private readonly permissions: PermissionGuard;

  constructor(
    private readonly reflector: Reflector,
    modules: ModuleRef,
  ) {
    super();
    this.permissions = new PermissionGuard(reflector, modules);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    await super.canActivate(context);
    return this.permissions.canActivate(context);
  }

  override handleRequest<T = Principal>(error: unknown, user: T | false): T {
    if (error instanceof Error) throw error;
    if (error) throw new InvalidTokenError('The access token could not be checked.');
    if (!user) throw new InvalidTokenError('An access token is required: send Authorization: Bearer <token>.');
    return user;
  }
}
