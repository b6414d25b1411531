import { Inject, Injectable } from '@nestjs/common';
import { AuthorizationClients } from '../../clients/authorization-clients.js';
import { tokenConfig, type TokenConfig } from '../../token.config.js';
import { CodeIssuance } from './code-issuance.js';
import { Consent } from './consent.js';
import type { AuthorizationAnswer, Visitor } from './pages/page-answer.js';
import { renderErrorPage, signInPagePolicy } from './pages/sign-in-page.js';
import {
  AuthorizationPageError,
  AuthorizationRedirectError,
  redirectTo,
  type AuthorizationRequest,
} from './request/authorization-request.js';
import { parseAuthorizationRequest } from './request/request-checks.js';
import { SignInInteraction } from './sign-in-interaction.js';

/**
 * The authorization endpoint (RFC 6749 §4.1.1), in the order a request meets its parts: the request checks, the
 * sign-in interaction, consent to a registered application unless the person already allowed it what it asks, and
 * the code. Errors go back to the client once its redirect URI is known good, and are a page before.
 */
@Injectable()
export class AuthorizationEndpoint {
  constructor(
    private readonly clients: AuthorizationClients,
    private readonly signIn: SignInInteraction,
    private readonly consent: Consent,
    private readonly codes: CodeIssuance,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
  ) {}

  show(query: unknown, visitor: Visitor): Promise<AuthorizationAnswer> {
    return this.answer(async () => this.signIn.page(await this.parse(query), visitor, 200));
  }

  submit(body: unknown, visitor: Visitor): Promise<AuthorizationAnswer> {
    return this.answer(async () => {
      const request = await this.parse(body);
      const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
      if (fields.consent_token !== undefined) return this.consented(request, fields, visitor);
      const posted = this.signIn.read(request, fields, visitor);
      if (posted.kind !== 'credentials') return posted;
      const outcome = await this.signIn.signIn(request, posted.username, posted.password, visitor);
      if (outcome.kind !== 'signed-in') return outcome;
      const { user } = outcome;
      const scope = await this.codes.grantable(request, user);
      await this.signIn.signedIn(request, user, visitor);
      if (!(await this.consent.given(request, user, scope))) {
        return this.consent.page(request, visitor, user, scope, 200);
      }
      return this.codes.redirect(request, user.id, scope);
    });
  }

  /** The consent form posted: Allow sends the code for what was shown and may still be granted. */
  private async consented(
    request: AuthorizationRequest,
    fields: Record<string, unknown>,
    visitor: Visitor,
  ): Promise<AuthorizationAnswer> {
    const decision = await this.consent.decide(request, fields, visitor);
    if (decision.kind === 'sign-in-again') return this.signIn.page(request, visitor, decision.status, decision.shown);
    if (decision.kind !== 'allowed') return decision;
    const { user } = decision;
    const now = await this.codes.grantable(request, user);
    const scope = decision.scope.filter((permission) => now.includes(permission));
    await this.consent.allow(request, user, scope, visitor);
    return this.codes.redirect(request, user.id, scope);
  }

  /** The client is looked up first (registered ones are in the database), then the request is checked against it. */
  private async parse(input: unknown): Promise<AuthorizationRequest> {
    const clientId =
      typeof input === 'object' && input !== null ? (input as Record<string, unknown>).client_id : undefined;
    const client = typeof clientId === 'string' ? await this.clients.find(clientId) : undefined;
    return parseAuthorizationRequest(input, () => client);
  }

  /** Runs one step, turning the request's own errors into the error page or the error redirect. */
  private async answer(step: () => Promise<AuthorizationAnswer>): Promise<AuthorizationAnswer> {
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
