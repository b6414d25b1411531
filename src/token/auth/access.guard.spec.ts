import { Controller, Get } from '@nestjs/common';
import { Reflector, type ModuleRef } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { Request } from 'express';
import { Public, RequirePermission, InsufficientScopeError, InvalidTokenError } from '@file-fields/nest';
import type { AccessTokenClaims, AccessTokensService } from '../issuing/access-tokens.service.js';
import type { SubjectStatusService, TokenBinding } from '../revocation/subject-status.service.js';
import { AccessGuard } from './access.guard.js';
import { BearerStrategy } from './bearer.strategy.js';

/** Routes with each kind of requirement, only for their metadata. */
@Controller()
class Routes {
  @Public()
  @Get()
  open(): void {}

  @Get()
  anyToken(): void {}

  @RequirePermission('product:read')
  @Get()
  fixed(): void {}

  @RequirePermission((request: Request) => `${String(request.params.entity)}:write`)
  @Get()
  derived(): void {}
}

/** The scope each valid test token carries; `revoked` belongs to a subject that no longer accepts it. */
const SCOPES: Record<string, string> = {
  reader: 'product:read',
  admin: '*',
  mixed: 'product:write article:read',
  writer: 'article:write',
  revoked: '*',
};

const tokens = {
  verify: (token: string): Promise<AccessTokenClaims> => {
    const scope = SCOPES[token];
    if (scope === undefined) throw new InvalidTokenError('The access token is malformed.');
    const sub = token === 'revoked' ? 'user:2' : 'user:1';
    const sid = token === 'reader' ? { sid: 'sign-in-1' } : {};
    return Promise.resolve({ sub, client_id: 'administration', scope, ver: 0, ...sid } as AccessTokenClaims);
  },
} as AccessTokensService;
const status = { accepts: ({ sub }: TokenBinding) => Promise.resolve(sub === 'user:1') } as SubjectStatusService;

describe('AccessGuard', () => {
  const guard = new AccessGuard(new Reflector(), {} as ModuleRef);
  // Registers the 'bearer' strategy with passport, as the module does.
  new BearerStrategy(tokens, status);

  function check(route: keyof Routes, authorization?: string, params: Record<string, string> = {}) {
    const request = { headers: authorization ? { authorization } : {}, params } as Request;
    const context = new ExecutionContextHost([request, {}, () => undefined], Routes, Routes.prototype[route]);
    return { result: guard.canActivate(context), request };
  }

  it('lets anyone through a @Public() route without reading a token', async () => {
    await expect(check('open').result).resolves.toBe(true);
    await expect(check('open', 'Bearer garbage').result).resolves.toBe(true);
  });

  it('refuses a request without a bearer token with 401', async () => {
    await expect(check('anyToken').result).rejects.toThrow(InvalidTokenError);
    await expect(check('anyToken', 'Basic abc').result).rejects.toThrow(/An access token is required/);
  });

  it('refuses an invalid token with its own reason', async () => {
    await expect(check('anyToken', 'Bearer garbage').result).rejects.toThrow('The access token is malformed.');
    await expect(check('anyToken', 'Bearer revoked').result).rejects.toThrow('The access token was revoked.');
  });

  it('lets any valid token through a route without a permission, and sets the principal', async () => {
    const { result, request } = check('anyToken', 'Bearer reader');
    await expect(result).resolves.toBe(true);
    const principal = { subject: 'user:1', clientId: 'administration', scopes: ['product:read'] };
    expect(request.user).toEqual({ ...principal, signInId: 'sign-in-1' });
    const withoutSignIn = check('anyToken', 'Bearer mixed');
    await expect(withoutSignIn.result).resolves.toBe(true);
    expect(withoutSignIn.request.user).toEqual({ ...principal, scopes: ['product:write', 'article:read'] });
  });

  it('checks a fixed permission against the scope', async () => {
    await expect(check('fixed', 'Bearer reader').result).resolves.toBe(true);
    await expect(check('fixed', 'Bearer admin').result).resolves.toBe(true);
    await expect(check('fixed', 'Bearer mixed').result).rejects.toThrow(InsufficientScopeError);
  });

  it('derives the permission from the request when the route gives a function', async () => {
    await expect(check('derived', 'Bearer writer', { entity: 'article' }).result).resolves.toBe(true);
    const refused = check('derived', 'Bearer writer', { entity: 'product' }).result;
    await expect(refused).rejects.toMatchObject({ status: 403, permission: 'product:write' });
  });
});
