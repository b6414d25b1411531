import { Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Clock, UnitOfWork } from '@file-fields/nest';
import { randomToken, sha256Hex } from '../crypto/secrets.js';
import type { User } from '../repositories/entities/user.entity.js';
import { intersectPermissions } from '../credentials/scopes.js';
import { OAuthError } from '../credentials/oauth-error.js';
import { RefreshTokensRepository } from '../repositories/refresh-tokens.repository.js';
import { RolesRepository } from '../repositories/roles.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { RefreshTokensService, type SignIn } from './refresh-tokens.service.js';
import { SubjectStatusService } from '../revocation/subject-status.service.js';
import { AuthorizationCodesRepository } from '../repositories/authorization-codes.repository.js';

/** How long a code can be redeemed: the client exchanges it as soon as the browser comes back (RFC 9700: short). */
const CODE_TTL_MS = 60_000;
/** How long a spent or expired code is kept, so that its reuse still revokes what it issued. */
const CODE_RETENTION_MS = 24 * 3_600_000;

/** What a code is bound to, from the checked authorization request. */
export interface CodeRequest {
  client: { clientId: string };
  redirectUri: string;
  codeChallenge: string;
}

/** What a redemption must match: the client, redirect URI and PKCE verifier of the token request. */
export interface Redemption {
  code: string;
  clientId: string;
  redirectUri: string;
  codeVerifier: string;
  /** The client's scope ceiling as it is now. */
  ceiling: readonly string[];
}

/** A code exchanged: its user, the scope granted today, and the new sign-in. */
export interface Redeemed {
  user: User;
  scope: string;
  signIn: { token: string; familyId: string };
}

type Outcome = ({ ok: true } & Redeemed) | { ok: false; reason: string } | { ok: false; reused: SignIn };

/** A spent code came back: the sign-in it was exchanged for is revoked (RFC 6749 §4.1.2). */
export class AuthorizationCodeReusedError extends OAuthError {
  constructor(readonly signIn: SignIn) {
    super('invalid_grant', 'The authorization code was already used; the sign-in it gave is revoked.');
  }
}

/**
 * Authorization codes: issued after a person signed in on the authorization endpoint's page, redeemed once at the
 * token endpoint. Every presentation spends the code, even one that fails a check (a wrong verifier), so a stolen
 * code cannot be tried twice. The spend is a compare-and-swap on `used_at`: of two concurrent redemptions exactly
 * one goes on.
 */
@Injectable()
export class AuthorizationCodesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly codes: AuthorizationCodesRepository,
    private readonly users: UsersRepository,
    private readonly roles: RolesRepository,
    private readonly refreshTokens: RefreshTokensService,
    private readonly refreshTokenRows: RefreshTokensRepository,
    private readonly status: SubjectStatusService,
  ) {}

  /** A new code for `user`, bound to the request; `scope` is what the user's role granted at sign-in. */
  async issue(request: CodeRequest, userId: number, scope: string): Promise<string> {
    const code = randomToken(32);
    const now = this.clock.nowMs();
    await this.unitOfWork.run(async ({ manager }) => {
      await this.codes.deleteExpired(now - CODE_RETENTION_MS, manager);
      await this.codes.insert(
        {
          codeHash: sha256Hex(code),
          clientId: request.client.clientId,
          redirectUri: request.redirectUri,
          codeChallenge: request.codeChallenge,
          userId,
          scope,
          createdAt: now,
          expiresAt: now + CODE_TTL_MS,
        },
        manager,
      );
    });
    return code;
  }

  /** Exchanges a code for a new sign-in, or throws invalid_grant ({@link AuthorizationCodeReusedError} for a reuse). */
  async redeem(redemption: Redemption): Promise<Redeemed> {
    const outcome = await this.unitOfWork.run(({ manager }) => this.tryRedeem(manager, redemption));
    if (outcome.ok) return outcome;
    if ('reused' in outcome) {
      this.status.invalidateSignIn(outcome.reused.familyId);
      throw new AuthorizationCodeReusedError(outcome.reused);
    }
    throw new OAuthError('invalid_grant', outcome.reason);
  }

  private async tryRedeem(manager: EntityManager, redemption: Redemption): Promise<Outcome> {
    const now = this.clock.nowMs();
    const codeHash = sha256Hex(redemption.code);
    const found = await this.codes.findByHash(codeHash, manager);
    if (!found) return { ok: false, reason: 'The authorization code is unknown.' };
    if (!(await this.codes.claim(found.id, now, manager))) {
      // Read again: on PostgreSQL the claim waited for a concurrent redemption, whose sign-in is now committed.
      const spent = await this.codes.findByHash(codeHash, manager);
      if (!spent?.familyId) return { ok: false, reason: 'The authorization code was already used.' };
      await this.refreshTokenRows.revokeFamily(spent.familyId, now, manager);
      const { familyId, userId, clientId, scope } = spent;
      return { ok: false, reused: { familyId, userId, clientId, scope } };
    }
    if (now >= found.expiresAt) return { ok: false, reason: 'The authorization code expired.' };
    if (found.clientId !== redemption.clientId) {
      return { ok: false, reason: 'The authorization code was issued to another client.' };
    }
    if (found.redirectUri !== redemption.redirectUri) {
      return { ok: false, reason: 'The redirect_uri is not the one of the authorization request.' };
    }
    if (!verifierMatches(redemption.codeVerifier, found.codeChallenge)) {
      return { ok: false, reason: 'The code_verifier does not match the code_challenge.' };
    }
    const user = await this.users.findById(found.userId, manager);
    if (!user) return { ok: false, reason: 'The user of this authorization code no longer exists.' };
    const role = await this.roles.findExisting(user.roleId, manager);
    // What was granted at sign-in, narrowed to what the role grants and the client may have today.
    const held = intersectPermissions(found.scope.split(' ').filter(Boolean), role.permissions);
    const scope = intersectPermissions(held, redemption.ceiling).join(' ');
    const signIn = await this.refreshTokens.start(manager, { userId: user.id, clientId: found.clientId, scope });
    await this.codes.recordSignIn(found.id, signIn.familyId, manager);
    return { ok: true, user, scope, signIn };
  }
}

/** RFC 7636 §4.6: BASE64URL(SHA256(ASCII(code_verifier))) equals the challenge. */
function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
