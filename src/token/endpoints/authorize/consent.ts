import { Inject, Injectable } from '@nestjs/common';
import { AuditTrail } from '../../../audit/index.js';
import { Clock } from '@file-fields/nest';
import { consentCovers } from '../../credentials/client-scopes.js';
import { PermissionCatalog } from '../../credentials/permission-catalog.service.js';
import { subjectOf } from '../../credentials/subjects.js';
import type { User } from '../../repositories/entities/user.entity.js';
import { OAuthGrantsRepository } from '../../repositories/oauth-grants.repository.js';
import { UsersRepository } from '../../repositories/users.repository.js';
import { tokenConfig, type TokenConfig } from '../../token.config.js';
import { pageAnswer, pageClient, type AuthorizationAnswer, type Shown, type Visitor } from './pages/page-answer.js';
import { permissionWords } from './pages/permission-words.js';
import { SignInForm } from './pages/sign-in-form.js';
import { renderConsentPage } from './pages/sign-in-page.js';
import {
  authorizationParameters,
  AuthorizationRedirectError,
  type AuthorizationRequest,
} from './request/authorization-request.js';

/**
 * The consent form posted: Allow with the person and the scope the page showed, or the sign-in page again (an old,
 * forged or unbound form, an account gone since), or the consent page again (neither Allow nor Deny).
 */
export type ConsentDecision =
  | { kind: 'allowed'; user: User; scope: string[] }
  | { kind: 'sign-in-again'; status: number; shown: Shown }
  | AuthorizationAnswer;

/**
 * Consent to a registered application (never asked for the administration interface, the service's own): the page
 * that asks it, remembered consents that spare asking again, and the form's answer. Both answers are recorded
 * (`oauth-consent.allow`, `oauth-consent.deny`).
 */
@Injectable()
export class Consent {
  constructor(
    private readonly form: SignInForm,
    private readonly grants: OAuthGrantsRepository,
    private readonly users: UsersRepository,
    private readonly catalog: PermissionCatalog,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
  ) {}

  /** Whether the code may be sent without asking: a built-in client, or a remembered consent covering `scope`. */
  async given(request: AuthorizationRequest, user: Pick<User, 'id'>, scope: readonly string[]): Promise<boolean> {
    if (request.client.builtIn) return true;
    const remembered = await this.grants.find(user.id, request.client.clientId);
    return remembered !== null && consentCovers(remembered.scopes, scope);
  }

  /** The consent page: the permissions in words, and a form token sealing who signed in and the scope shown. */
  page(
    request: AuthorizationRequest,
    visitor: Visitor,
    user: Pick<User, 'id' | 'username'>,
    scope: readonly string[],
    status: number,
    message?: string,
  ): AuthorizationAnswer {
    const cookie = this.form.cookieValue(visitor.cookies).value;
    const hidden = {
      ...authorizationParameters(request),
      consent_token: this.form.consentToken(request, cookie, user.id, scope),
    };
    const html = renderConsentPage({
      ...pageClient(request),
      username: user.username,
      permissions: permissionWords(this.catalog.list(), scope),
      hidden,
      ...(message ? { message } : {}),
    });
    return pageAnswer(request, { status, html, cookie, secure: this.config.issuer.startsWith('https:') });
  }

  /** Reads the posted consent form; Deny is recorded and sent back to the client as access_denied. */
  async decide(
    request: AuthorizationRequest,
    fields: Record<string, unknown>,
    visitor: Visitor,
  ): Promise<ConsentDecision> {
    const sealed = this.form.checkConsent(fields.consent_token, visitor.cookies, request);
    if (sealed.check !== 'valid') {
      const message =
        sealed.check === 'expired'
          ? 'The consent form expired. Sign in again.'
          : 'The consent form could not be verified (it did not come from this page). Sign in again.';
      return { kind: 'sign-in-again', status: sealed.check === 'expired' ? 200 : 403, shown: { message } };
    }
    const user = await this.users.findById(sealed.userId);
    if (!user)
      return { kind: 'sign-in-again', status: 200, shown: { message: 'Your account is gone. Sign in again.' } };
    if (fields.action === 'deny') {
      await this.record('deny', request, user, sealed.scope, visitor);
      const { redirectUri, state } = request;
      throw new AuthorizationRedirectError(
        'access_denied',
        'The user denied the application access.',
        redirectUri,
        state,
      );
    }
    if (fields.action !== 'allow') return this.page(request, visitor, user, sealed.scope, 400, 'Choose Allow or Deny.');
    return { kind: 'allowed', user, scope: sealed.scope };
  }

  /**
   * Allow: remembers the consent to `scope` (what the page showed, narrowed again to what the person and the client may
   * have now) and records it; nothing left is invalid_scope.
   */
  async allow(request: AuthorizationRequest, user: Pick<User, 'id'>, scope: string[], visitor: Visitor): Promise<void> {
    if (scope.length === 0) {
      const { redirectUri, state } = request;
      throw new AuthorizationRedirectError(
        'invalid_scope',
        'Nothing asked for is granted any more.',
        redirectUri,
        state,
      );
    }
    await this.grants.remember(user.id, request.client.clientId, scope, this.clock.nowMs());
    await this.record('allow', request, user, scope, visitor);
  }

  private record(
    action: 'allow' | 'deny',
    request: AuthorizationRequest,
    user: Pick<User, 'id'>,
    scope: readonly string[],
    visitor: Visitor,
  ): Promise<void> {
    return this.trail.record({
      ...visitor.origin,
      actor: subjectOf('user', user.id),
      clientId: request.client.clientId,
      action: `oauth-consent.${action}`,
      targetType: 'oauth-client',
      targetId: request.client.clientId,
      details: { scopes: scope },
    });
  }
}
