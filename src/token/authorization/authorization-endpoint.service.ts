import { Inject, Injectable } from '@nestjs/common';
import type { AuditOrigin } from '../../audit/index.js';
import { UserCredentials } from '../grants/user-credentials.js';
import { grantedScope } from '../issuing/scopes.js';
import { TokenFailureLimiter } from '../limits/token-failure-limiter.js';
import { OAuthError } from '../oauth-error.js';
import { RolesRepository } from '../repositories/roles.repository.js';
import { tokenConfig, type TokenConfig } from '../token.config.js';
import { AuthorizationClients } from './authorization-clients.js';
import { AuthorizationCodesService } from './authorization-codes.service.js';
import {
  authorizationParameters,
  AuthorizationPageError,
  AuthorizationRedirectError,
  parseAuthorizationRequest,
  redirectTo,
  type AuthorizationRequest,
} from './authorization-request.js';
import { SignInForm } from './sign-in-form.js';
import { renderErrorPage, renderSignInPage, signInPagePolicy } from './sign-in-page.js';

/** What the authorization endpoint answers: a page, or a redirect to the client. */
export type AuthorizationAnswer =
  | { kind: 'page'; status: number; html: string; policy: string; headers: Record<string, string> }
  | { kind: 'redirect'; location: string };

/** The browser's side of a request: its cookies and where it came from. */
export interface Visitor {
  cookies: string | undefined;
  origin: AuditOrigin;
}

/**
 * The authorization endpoint (RFC 6749 §4.1.1): shows the sign-in page for a valid request, checks the posted
 * username and password as the password grant does (same failure limits, same audit trail), and sends the browser
 * back to the client with a code, or with an error once the client and its redirect URI are known good.
 */
@Injectable()
export class AuthorizationEndpoint {
  constructor(
    private readonly clients: AuthorizationClients,
    private readonly form: SignInForm,
    private readonly credentials: UserCredentials,
    private readonly limiter: TokenFailureLimiter,
    private readonly roles: RolesRepository,
    private readonly codes: AuthorizationCodesService,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
  ) {}

  show(query: unknown, visitor: Visitor): Promise<AuthorizationAnswer> {
    return this.answer(async () => this.signInPage(await this.parse(query), visitor, 200));
  }

  submit(body: unknown, visitor: Visitor): Promise<AuthorizationAnswer> {
    return this.answer(async () => {
      const request = await this.parse(body);
      const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      const check = this.form.check(fields.csrf_token, visitor.cookies, request);
      // An old form is not an attack: a fresh one, with a word why. A forged or unbound one is refused.
      if (check === 'expired') {
        return this.signInPage(request, visitor, 200, { message: 'The sign-in form expired. Sign in again.' });
      }
      if (check === 'invalid') {
        const message = 'The sign-in form could not be verified (it did not come from this page). Sign in again.';
        return this.signInPage(request, visitor, 403, { message });
      }
      if (fields.action === 'cancel') {
        throw new AuthorizationRedirectError(
          'access_denied',
          'The user cancelled the sign-in.',
          request.redirectUri,
          request.state,
        );
      }
      const { username, password } = fields;
      if (typeof username !== 'string' || typeof password !== 'string' || !username || !password) {
        const message = 'Enter your username and password.';
        return this.signInPage(request, visitor, 400, {
          message,
          username: typeof username === 'string' ? username : '',
        });
      }
      return this.signIn(request, username, password, visitor);
    });
  }

  private async signIn(
    request: AuthorizationRequest,
    username: string,
    password: string,
    visitor: Visitor,
  ): Promise<AuthorizationAnswer> {
    const { origin } = visitor;
    let user;
    try {
      user = await this.limiter.limited(
        origin.sourceIp ?? 'unknown',
        () => username,
        (name) => ({ kind: 'user', name }),
        (name) => this.credentials.verify(name, password, origin),
      );
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      const retryAfter = error.headers['Retry-After'];
      const message =
        error.status === 429
          ? `Too many failed sign-ins. Try again in ${retryAfter} seconds.`
          : error.status === 503
            ? `The service is busy. Try again in ${retryAfter} seconds.`
            : 'Wrong username or password.';
      const status = error.status === 429 || error.status === 503 ? error.status : 401;
      return this.signInPage(request, visitor, status, { message, username }, retryAfter);
    }
    const role = await this.roles.findExisting(user.roleId);
    let scope: string;
    try {
      scope = grantedScope(request.scope || undefined, role.permissions);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      throw new AuthorizationRedirectError('invalid_scope', error.description, request.redirectUri, request.state);
    }
    const code = await this.codes.issue(request, user.id, scope);
    await this.credentials.signedIn(user, origin);
    return {
      kind: 'redirect',
      location: redirectTo(request.redirectUri, { code, state: request.state, iss: this.config.issuer }),
    };
  }

  /** The client is looked up first (registered ones are in the database), then the request is checked against it. */
  private async parse(input: unknown): Promise<AuthorizationRequest> {
    const clientId =
      typeof input === 'object' && input !== null ? (input as Record<string, unknown>).client_id : undefined;
    const client = typeof clientId === 'string' ? await this.clients.find(clientId) : undefined;
    return parseAuthorizationRequest(input, () => client);
  }

  private signInPage(
    request: AuthorizationRequest,
    visitor: Visitor,
    status: number,
    shown: { message?: string; username?: string } = {},
    retryAfter?: string,
  ): AuthorizationAnswer {
    const cookie = this.form.cookieValue(visitor.cookies);
    const hidden = { ...authorizationParameters(request), csrf_token: this.form.token(request, cookie.value) };
    const html = renderSignInPage({ clientName: request.client.name, hidden, ...shown });
    const headers: Record<string, string> = {
      'Set-Cookie': SignInForm.setCookie(cookie.value, this.config.issuer.startsWith('https:')),
      ...(retryAfter ? { 'Retry-After': retryAfter } : {}),
    };
    return { kind: 'page', status, html, policy: signInPagePolicy(new URL(request.redirectUri).origin), headers };
  }

  /** Runs one step, turning the request's own errors into the error page or the error redirect. */
  private async answer(step: () => AuthorizationAnswer | Promise<AuthorizationAnswer>): Promise<AuthorizationAnswer> {
    try {
      return await step();
    } catch (error) {
      if (error instanceof AuthorizationPageError) {
        const html = renderErrorPage(error.message);
        return { kind: 'page', status: 400, html, policy: signInPagePolicy(), headers: {} };
      }
      if (!(error instanceof AuthorizationRedirectError)) throw error;
      const { error: code, description, state } = error;
      const parameters = { error: code, error_description: description, state, iss: this.config.issuer };
      return { kind: 'redirect', location: redirectTo(error.redirectUri, parameters) };
    }
  }
}
