import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import {
  IS_PUBLIC,
  REQUIRED_PERMISSION,
  type PermissionRequirement,
  InsufficientScopeError,
  InvalidTokenError,
} from '@file-fields/nest';
import type { Principal } from '../../common/auth/principal.js';
import { grants } from '../credentials/scopes.js';

/**
 * The global guard: every route needs a valid bearer token unless it is @Public(), and the token's scope must
 * include the route's @RequirePermission(). Runs before pipes and handlers, so no upload byte is read without it.
 */
@Injectable()
export class AccessGuard extends AuthGuard('bearer') {
  constructor(
    private readonly reflector: Reflector,
    private readonly modules: ModuleRef,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    await super.canActivate(context);
    const request = context.switchToHttp().getRequest<Request>();
    const requirement = this.reflector.getAllAndOverride<PermissionRequirement | undefined>(
      REQUIRED_PERMISSION,
      targets,
    );
    if (requirement === undefined) return true;
    const permission = typeof requirement === 'string' ? requirement : requirement(request, this.modules);
    if (!grants(request.user?.scopes ?? [], permission)) throw new InsufficientScopeError(permission);
    return true;
  }

  override handleRequest<T = Principal>(error: unknown, user: T | false): T {
    if (error instanceof Error) throw error;
    if (error) throw new InvalidTokenError('The access token could not be checked.');
    if (!user) throw new InvalidTokenError('An access token is required: send Authorization: Bearer <token>.');
    return user;
  }
}
