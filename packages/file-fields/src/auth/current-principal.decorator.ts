import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { InvalidTokenError } from './auth.errors.js';
import type { Principal } from './principal.js';

/** The principal the access guard proved for this request (routes that are not @Public() only). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<Request>().user;
  if (!principal) throw new InvalidTokenError('An access token is required: send Authorization: Bearer <token>.');
  return principal;
});
