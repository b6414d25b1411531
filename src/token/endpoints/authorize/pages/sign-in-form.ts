import { Injectable } from '@nestjs/common';
import { Clock } from '@file-fields/nest';
import { SecretBox, SecretBoxError } from '../../../../secrets/index.js';
import { randomToken } from '../../../crypto/secrets.js';
import { authorizationParameters, type AuthorizationRequest } from '../request/authorization-request.js';

/** The cookie the sign-in form is bound to: a random value, sent back only by this site's own pages. */
export const SIGN_IN_COOKIE = 'oauth_sign_in';
/** How long a sign-in form can be submitted after it was shown. */
const FORM_TTL_MS = 15 * 60_000;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{22,64}$/;

/** What a submitted form's token says: good, too old, or not from this service's form for this request. */
export type FormCheck = 'valid' | 'expired' | 'invalid';

/** What the consent form's token says: who signed in and the scope they are asked to allow, if it is good. */
export type ConsentCheck = { check: 'valid'; userId: number; scope: string[] } | { check: 'expired' | 'invalid' };

/**
 * The sign-in form's CSRF token: sealed with SECRETS_KEY (so every instance opens it), bound to the browser's
 * sign-in cookie and, as authenticated data, to the authorization request the form carries. A page of another site
 * cannot post a form that passes: it has no token for the victim's cookie, and the cookie (SameSite=Strict) does not
 * come with its request anyway.
 */
@Injectable()
export class SignInForm {
  constructor(
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** The browser's sign-in cookie value if it sent a well-formed one, else a new one to set. */
  cookieValue(cookieHeader: string | undefined): { value: string; isNew: boolean } {
    const sent = readCookie(cookieHeader, SIGN_IN_COOKIE);
    // Kept when present: two tabs signing in at once must not invalidate each other's form.
    return sent && COOKIE_VALUE.test(sent) ? { value: sent, isNew: false } : { value: randomToken(16), isNew: true };
  }

  token(request: AuthorizationRequest, cookieValue: string): string {
    const expires = this.clock.nowMs() + FORM_TTL_MS;
    return this.box.seal(JSON.stringify({ cookie: cookieValue, expires }), boundTo(request));
  }

  check(token: unknown, cookieHeader: string | undefined, request: AuthorizationRequest): FormCheck {
    return this.open(token, cookieHeader, boundTo(request)).check;
  }

  /**
   * The consent form's token: as the sign-in form's, and it also seals who signed in and the scope shown, so the
   * page's Allow can only allow what the person saw, for themselves, in this browser.
   */
  consentToken(request: AuthorizationRequest, cookieValue: string, userId: number, scope: readonly string[]): string {
    const expires = this.clock.nowMs() + FORM_TTL_MS;
    const sealed = { cookie: cookieValue, expires, user: userId, scope };
    return this.box.seal(JSON.stringify(sealed), `consent-${boundTo(request)}`);
  }

  checkConsent(token: unknown, cookieHeader: string | undefined, request: AuthorizationRequest): ConsentCheck {
    const { check, sealed } = this.open(token, cookieHeader, `consent-${boundTo(request)}`);
    if (check !== 'valid') return { check };
    const { user, scope } = sealed as { user?: unknown; scope?: unknown };
    if (typeof user !== 'number' || !Array.isArray(scope) || !scope.every((item) => typeof item === 'string')) {
      return { check: 'invalid' };
    }
    return { check, userId: user, scope };
  }

  private open(
    token: unknown,
    cookieHeader: string | undefined,
    boundTo: string,
  ): { check: FormCheck; sealed?: Record<string, unknown> } {
    const cookie = readCookie(cookieHeader, SIGN_IN_COOKIE);
    if (typeof token !== 'string' || !cookie) return { check: 'invalid' };
    let sealed: { cookie?: unknown; expires?: unknown };
    try {
      sealed = JSON.parse(this.box.open(token, boundTo)) as typeof sealed;
    } catch (error) {
      if (error instanceof SecretBoxError || error instanceof SyntaxError) return { check: 'invalid' };
      throw error;
    }
    if (sealed.cookie !== cookie || typeof sealed.expires !== 'number') return { check: 'invalid' };
    return { check: this.clock.nowMs() < sealed.expires ? 'valid' : 'expired', sealed };
  }

  /** The Set-Cookie header of a new sign-in cookie: this endpoint only, never sent by another site's request. */
  static setCookie(value: string, secure: boolean): string {
    const attributes = [`Path=/api/oauth/authorize`, `Max-Age=${FORM_TTL_MS / 1000}`, 'HttpOnly', 'SameSite=Strict'];
    return [`${SIGN_IN_COOKIE}=${value}`, ...attributes, ...(secure ? ['Secure'] : [])].join('; ');
  }
}

function boundTo(request: AuthorizationRequest): string {
  return `sign-in-form:${JSON.stringify(authorizationParameters(request))}`;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
