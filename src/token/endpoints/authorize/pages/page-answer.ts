import type { AuditOrigin } from '../../../../audit/index.js';
import type { AuthorizationRequest } from '../request/authorization-request.js';
import { SignInForm } from './sign-in-form.js';
import { signInPagePolicy, type PageClient } from './sign-in-page.js';

/** What the authorization endpoint answers: a page, or a redirect to the client. */
export type AuthorizationAnswer =
  | { kind: 'page'; status: number; html: string; policy: string; headers: Record<string, string> }
  | { kind: 'redirect'; location: string };

/** The browser's side of a request: its cookies and where it came from. */
export interface Visitor {
  cookies: string | undefined;
  origin: AuditOrigin;
}

/** What the sign-in page says again: why it is shown, and the username typed. */
export interface Shown {
  message?: string;
  username?: string;
}

/**
 * A page of the sign-in or the consent, under the pages' policy (its form posts here, then the browser goes to the
 * client's redirect URI), with the sign-in cookie its form is bound to; `secure` on an https issuer.
 */
export function pageAnswer(
  request: AuthorizationRequest,
  page: { status: number; html: string; cookie: string; secure: boolean; retryAfter?: string },
): AuthorizationAnswer {
  const headers: Record<string, string> = {
    'Set-Cookie': SignInForm.setCookie(page.cookie, page.secure),
    ...(page.retryAfter ? { 'Retry-After': page.retryAfter } : {}),
  };
  const policy = signInPagePolicy(new URL(request.redirectUri).origin);
  return { kind: 'page', status: page.status, html: page.html, policy, headers };
}

/** Who asks, as the pages show it. */
export function pageClient({ client, redirectUri }: AuthorizationRequest): PageClient {
  return {
    clientName: client.name,
    clientId: client.clientId,
    redirectHost: new URL(redirectUri).host,
    builtIn: client.builtIn,
  };
}
