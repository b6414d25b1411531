import { Inject, Injectable } from '@nestjs/common';
import { OAuthError } from '../../credentials/oauth-error.js';
import { UserCredentials } from '../../grants/user-credentials.js';
import { TokenFailureLimiter } from '../../limits/token-failure-limiter.js';
import type { User } from '../../repositories/entities/user.entity.js';
import { tokenConfig, type TokenConfig } from '../../token.config.js';
import { pageAnswer, pageClient, type AuthorizationAnswer, type Shown, type Visitor } from './pages/page-answer.js';
import { SignInForm } from './pages/sign-in-form.js';
import { renderSignInPage } from './pages/sign-in-page.js';
import {
  authorizationParameters,
  AuthorizationRedirectError,
  type AuthorizationRequest,
} from './request/authorization-request.js';

/** A posted sign-in form: its username and password, or the page to answer instead. */
export type PostedSignIn = { kind: 'credentials'; username: string; password: string } | AuthorizationAnswer;

/** A sign-in attempt: the person, or the page again (wrong password, too many attempts, busy). */
export type SignInOutcome = { kind: 'signed-in'; user: User } | AuthorizationAnswer;

/**
 * The sign-in interaction of the authorization endpoint: the page with its CSRF-bound form and cookie, the posted form
 * read and checked, and the username and password checked as the password grant checks them (same failure limits,
 * same audit trail).
 */
@Injectable()
export class SignInInteraction {
  constructor(
    private readonly form: SignInForm,
    private readonly credentials: UserCredentials,
    private readonly limiter: TokenFailureLimiter,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
  ) {}

  /** The sign-in page for `request`, with a fresh form token bound to the browser's cookie. */
  page(
    request: AuthorizationRequest,
    visitor: Visitor,
    status: number,
    shown: Shown = {},
    retryAfter?: string,
  ): AuthorizationAnswer {
    const cookie = this.form.cookieValue(visitor.cookies).value;
    const hidden = { ...authorizationParameters(request), csrf_token: this.form.token(request, cookie) };
    const html = renderSignInPage({ ...pageClient(request), hidden, ...shown });
    return pageAnswer(request, { status, html, cookie, secure: this.secure, retryAfter });
  }

  /**
   * The posted form: its token checked against the cookie and the request (an old form gets a fresh one with a word
   * why, a forged or unbound one is refused), Cancel sent back to the client as access_denied, and both fields there.
   */
  read(request: AuthorizationRequest, fields: Record<string, unknown>, visitor: Visitor): PostedSignIn {
    const check = this.form.check(fields.csrf_token, visitor.cookies, request);
    if (check === 'expired') {
      return this.page(request, visitor, 200, { message: 'The sign-in form expired. Sign in again.' });
    }
    if (check === 'invalid') {
      const message = 'The sign-in form could not be verified (it did not come from this page). Sign in again.';
      return this.page(request, visitor, 403, { message });
    }
    if (fields.action === 'cancel') {
      const { redirectUri, state } = request;
      throw new AuthorizationRedirectError('access_denied', 'The user cancelled the sign-in.', redirectUri, state);
    }
    const { username, password } = fields;
    if (typeof username !== 'string' || typeof password !== 'string' || !username || !password) {
      const message = 'Enter your username and password.';
      return this.page(request, visitor, 400, { message, username: typeof username === 'string' ? username : '' });
    }
    return { kind: 'credentials', username, password };
  }

  /** Checks the username and password within the failure limits of the password grant. */
  async signIn(
    request: AuthorizationRequest,
    username: string,
    password: string,
    visitor: Visitor,
  ): Promise<SignInOutcome> {
    const { origin } = visitor;
    try {
      const user = await this.limiter.limited(
        origin.sourceIp ?? 'unknown',
        () => username,
        (name) => ({ kind: 'user', name }),
        (name) => this.credentials.verify(name, password, origin, request.client.clientId),
      );
      return { kind: 'signed-in', user };
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
      return this.page(request, visitor, status, { message, username }, retryAfter);
    }
  }

  /** Records the sign-in (`sign-in.succeeded`) once the request may be answered with a code or a consent page. */
  signedIn(request: AuthorizationRequest, user: Pick<User, 'id'>, visitor: Visitor): Promise<void> {
    return this.credentials.signedIn(user, visitor.origin, request.client.clientId);
  }

  private get secure(): boolean {
    return this.config.issuer.startsWith('https:');
  }
}
