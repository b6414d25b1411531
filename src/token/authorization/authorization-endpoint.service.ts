import { Inject, Injectable } from '@nestjs/common';
import { AuditTrail, type AuditOrigin } from '../../audit/index.js';
import { Clock } from '../../common/clock.js';
import { OAuthGrantsRepository } from '../account/grants/oauth-grants.repository.js';
import { consentCovers, grantableScope, ScopeRefused } from '../admin/oauth-clients/client-scopes.js';
import { PermissionCatalog } from '../admin/permissions/permission-catalog.service.js';
import type { User } from '../entities/user.entity.js';
import { UserCredentials } from '../grants/user-credentials.js';
import { TokenFailureLimiter } from '../limits/token-failure-limiter.js';
import { OAuthError } from '../oauth-error.js';
import { RolesRepository } from '../repositories/roles.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { subjectOf } from '../revocation/subject-status.service.js';
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
import { permissionWords } from './permission-words.js';
import {
  renderConsentPage,
  renderErrorPage,
  renderSignInPage,
  signInPagePolicy,
  type PageClient,
} from './sign-in-page.js';

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
 * username and password as the password grant does (same failure limits, same audit trail), asks the person to
 * consent to a registered application (not to the administration interface) unless they already allowed it what it
 * asks, and sends the browser back to the client with a code, or with an error once the client and its redirect URI
 * are known good. The code carries the client's ceiling ∩ what was asked (its default scope if nothing) ∩ what the
 * person holds.
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
    private readonly users: UsersRepository,
    private readonly grants: OAuthGrantsRepository,
    private readonly catalog: PermissionCatalog,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
  ) {}

  show(query: unknown, visitor: Visitor): Promise<AuthorizationAnswer> {
    return this.answer(async () => this.signInPage(await this.parse(query), visitor, 200));
  }

  submit(body: unknown, visitor: Visitor): Promise<AuthorizationAnswer> {
    return this.answer(async () => {
      const request = await this.parse(body);
      const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      if (fields.consent_token !== undefined) return this.consent(request, fields, visitor);
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
        (name) => this.credentials.verify(name, password, origin, request.client.clientId),
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
    const scope = await this.grantable(request, user);
    await this.credentials.signedIn(user, origin, request.client.clientId);
    if (!request.client.builtIn) {
      const remembered = await this.grants.find(user.id, request.client.clientId);
      if (!remembered || !consentCovers(remembered.scopes, scope)) {
        return this.consentPage(request, visitor, user, scope, 200);
      }
    }
    return this.redirectWithCode(request, user.id, scope);
  }

  /** What a code may carry for `user` now; invalid_scope to the client when nothing may be granted. */
  private async grantable(request: AuthorizationRequest, user: Pick<User, 'roleId'>): Promise<string[]> {
    const role = await this.roles.findExisting(user.roleId);
    try {
      return grantableScope(request.scope, request.client, role.permissions);
    } catch (error) {
      if (!(error instanceof ScopeRefused)) throw error;
      throw new AuthorizationRedirectError('invalid_scope', error.description, request.redirectUri, request.state);
    }
  }

  private async redirectWithCode(
    request: AuthorizationRequest,
    userId: number,
    scope: readonly string[],
  ): Promise<AuthorizationAnswer> {
    const code = await this.codes.issue(request, userId, scope.join(' '));
    return {
      kind: 'redirect',
      location: redirectTo(request.redirectUri, { code, state: request.state, iss: this.config.issuer }),
    };
  }

  /**
   * The consent form posted: Allow remembers the consent and sends the code, Deny sends access_denied. Both are
   * recorded (`oauth-consent.allow`, `oauth-consent.deny`). The scope is the one the page showed, narrowed again to
   * what the person and the client may have now.
   */
  private async consent(
    request: AuthorizationRequest,
    fields: Record<string, unknown>,
    visitor: Visitor,
  ): Promise<AuthorizationAnswer> {
    const sealed = this.form.checkConsent(fields.consent_token, visitor.cookies, request);
    if (sealed.check !== 'valid') {
      const message =
        sealed.check === 'expired'
          ? 'The consent form expired. Sign in again.'
          : 'The consent form could not be verified (it did not come from this page). Sign in again.';
      return this.signInPage(request, visitor, sealed.check === 'expired' ? 200 : 403, { message });
    }
    const user = await this.users.findById(sealed.userId);
    if (!user) {
      return this.signInPage(request, visitor, 200, { message: 'Your account is gone. Sign in again.' });
    }
    const event = (action: 'allow' | 'deny', scope: readonly string[]) =>
      this.trail.record({
        ...visitor.origin,
        actor: subjectOf('user', user.id),
        clientId: request.client.clientId,
        action: `oauth-consent.${action}`,
        targetType: 'oauth-client',
        targetId: request.client.clientId,
        details: { scopes: scope },
      });
    if (fields.action === 'deny') {
      await event('deny', sealed.scope);
      throw new AuthorizationRedirectError(
        'access_denied',
        'The user denied the application access.',
        request.redirectUri,
        request.state,
      );
    }
    if (fields.action !== 'allow') {
      const message = 'Choose Allow or Deny.';
      return this.consentPage(request, visitor, user, sealed.scope, 400, message);
    }
    const now = await this.grantable(request, user);
    const scope = sealed.scope.filter((permission) => now.includes(permission));
    if (scope.length === 0) {
      throw new AuthorizationRedirectError(
        'invalid_scope',
        'Nothing asked for is granted any more.',
        request.redirectUri,
        request.state,
      );
    }
    await this.grants.remember(user.id, request.client.clientId, scope, this.clock.nowMs());
    await event('allow', scope);
    return this.redirectWithCode(request, user.id, scope);
  }

  private consentPage(
    request: AuthorizationRequest,
    visitor: Visitor,
    user: Pick<User, 'id' | 'username'>,
    scope: readonly string[],
    status: number,
    message?: string,
  ): AuthorizationAnswer {
    const cookie = this.form.cookieValue(visitor.cookies);
    const hidden = {
      ...authorizationParameters(request),
      consent_token: this.form.consentToken(request, cookie.value, user.id, scope),
    };
    const html = renderConsentPage({
      ...pageClient(request),
      username: user.username,
      permissions: permissionWords(this.catalog.list(), scope),
      hidden,
      ...(message ? { message } : {}),
    });
    return this.page(request, status, html, cookie.value);
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
    const html = renderSignInPage({ ...pageClient(request), hidden, ...shown });
    return this.page(request, status, html, cookie.value, retryAfter);
  }

  private page(
    request: AuthorizationRequest,
    status: number,
    html: string,
    cookie: string,
    retryAfter?: string,
  ): AuthorizationAnswer {
    const headers: Record<string, string> = {
      'Set-Cookie': SignInForm.setCookie(cookie, this.config.issuer.startsWith('https:')),
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

function pageClient({ client, redirectUri }: AuthorizationRequest): PageClient {
  return {
    clientName: client.name,
    clientId: client.clientId,
    redirectHost: new URL(redirectUri).host,
    builtIn: client.builtIn,
  };
}
