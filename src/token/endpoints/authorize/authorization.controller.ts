import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { originOf } from '../../../audit/index.js';
import { Public } from '@file-fields/nest';
import { OAUTH_AUTHORIZE_PATH } from '../../credentials/oauth-paths.js';
import { AuthorizationEndpoint } from './authorization-endpoint.service.js';
import type { AuthorizationAnswer } from './pages/page-answer.js';
import { ApiAuthorizationQuery, ApiPages, AuthorizationSignInFormSchema } from './authorization.schemas.js';

const REDIRECT_ERRORS =
  'Once the client and redirect URI are good, other errors go back there as `error`, `error_description`, `state` ' +
  'and `iss` (RFC 6749 §4.1.2.1, RFC 9207): invalid_request (a missing or `plain` PKCE challenge, a repeated ' +
  'parameter, a state over 1000 characters, which is not echoed), unsupported_response_type, invalid_scope, ' +
  'access_denied (cancelled or denied).';

@ApiTags('oauth')
@ApiExtraModels(AuthorizationSignInFormSchema)
@Public()
@Controller()
export class AuthorizationController {
  constructor(private readonly endpoint: AuthorizationEndpoint) {}

  @Get(OAUTH_AUTHORIZE_PATH)
  @ApiOperation({
    operationId: 'authorize',
    summary: 'Start signing in: the authorization code flow with PKCE (OAuth 2.1)',
    description:
      "A browser opens this URL; the service's own sign-in page answers (no script, framing refused). An unknown " +
      'client or a redirect URI not registered for it, compared by exact string, gets an error page, never a ' +
      `redirect. ${REDIRECT_ERRORS}`,
  })
  @ApiAuthorizationQuery()
  @ApiPages(
    [200, 'The sign-in page; sets the oauth_sign_in cookie its form is bound to'],
    [302, 'An error sent back to the redirect URI'],
    [400, 'An error page: unknown client, or a redirect URI not registered for it'],
  )
  async show(@Query() query: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    send(res, await this.endpoint.show(query, visitorOf(req)), 302);
  }

  @Post(OAUTH_AUTHORIZE_PATH)
  @ApiOperation({
    operationId: 'authorizeSignIn',
    summary: 'The sign-in form of the authorization endpoint',
    description:
      'Posted by the sign-in page and by the consent page. A right username and password redirect to the client ' +
      'with `code`, `state` and `iss`, at once for the administration interface or an application the person ' +
      'already allowed what it asks; otherwise the consent page answers (Allow sends the code, Deny access_denied). ' +
      'The code works once, within 60 seconds, for the PKCE verifier, client and redirect URI of the request. ' +
      'Failed sign-ins count against the same limits as the password grant. ' +
      REDIRECT_ERRORS,
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: AuthorizationSignInFormSchema })
  @ApiPages(
    [200, 'The consent page of a registered application, or a fresh sign-in page: the form was older than 15 minutes'],
    [303, 'Signed in (`code`), or an error sent back to the redirect URI'],
    [
      400,
      'The page again (username or password missing, neither Allow nor Deny), or an error page (unknown client or ' +
        'redirect URI)',
    ],
    [401, 'The page again: wrong username or password'],
    [403, 'The sign-in page again: the form token is missing, forged or not bound to this browser (its cookie)'],
    [429, 'The page again: too many failed sign-ins; see Retry-After'],
    [503, 'The page again: too many password checks at once; see Retry-After'],
  )
  async signIn(@Body() body: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    send(res, await this.endpoint.submit(body, visitorOf(req)), 303);
  }
}

function visitorOf(req: Request) {
  return { cookies: req.headers.cookie, origin: originOf(req) };
}

/** A page under its own policy, or a redirect without a body; neither is ever stored by a cache nor framed. */
function send(res: Response, answer: AuthorizationAnswer, redirectStatus: 302 | 303): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  if (answer.kind === 'redirect') {
    res.status(redirectStatus).setHeader('Location', answer.location);
    res.end();
    return;
  }
  res.setHeader('Content-Security-Policy', answer.policy);
  res.status(answer.status).set(answer.headers).type('html').send(answer.html);
}
