import { Injectable } from '@nestjs/common';
import type { Principal } from '../../../common/auth/principal.js';
import { Clock, UnitOfWork } from '@file-fields/nest';
import { OAuthClientsRepository } from '../../repositories/oauth-clients.repository.js';
import { AuthorizationCodesRepository } from '../../repositories/authorization-codes.repository.js';
import { ADMIN_CLIENT_ID } from '../../credentials/administration-client.js';
import { RefreshTokensRepository } from '../../repositories/refresh-tokens.repository.js';
import { SubjectStatusService } from '../../revocation/subject-status.service.js';
import { parseSubject } from '../../credentials/subjects.js';
import { TokenAdminError, TokenAdminErrorCode } from '../../token-admin.errors.js';
import { OAuthGrantsRepository } from '../../repositories/oauth-grants.repository.js';

/** A grant as the person who gave it sees it. */
export interface GrantView {
  clientId: string;
  clientName: string;
  /** The host (and port) of each redirect URI of the client, once each. */
  redirectHost: string;
  scopes: string[];
  grantedAt: number;
}

/**
 * The caller's own grants to registered applications. Only people give consent: an integration's token has none, and
 * is answered an empty list (as GET /api/me answers it for its integration) and 404 for any grant it names. A token
 * of a registered application sees and withdraws only the grant to that application.
 */
@Injectable()
export class OAuthGrantsService {
  constructor(
    private readonly grants: OAuthGrantsRepository,
    private readonly clients: OAuthClientsRepository,
    private readonly codes: AuthorizationCodesRepository,
    private readonly refreshTokens: RefreshTokensRepository,
    private readonly status: SubjectStatusService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async list(principal: Principal, limit: number, offset: number) {
    const userId = userOf(principal);
    if (userId === undefined) return { items: [], total: 0, limit, offset };
    const page = await this.grants.pageOfUser(userId, limit, offset, onlyClientOf(principal));
    const items: GrantView[] = [];
    for (const grant of page.items) {
      const client = await this.clients.findByClientId(grant.clientId);
      const hosts = [...new Set((client?.redirectUris ?? []).map((uri) => new URL(uri).host))];
      items.push({
        clientId: grant.clientId,
        clientName: client?.name ?? grant.clientId,
        redirectHost: hosts.join(', '),
        scopes: grant.scopes,
        grantedAt: grant.grantedAt,
      });
    }
    return { items, total: page.total, limit, offset };
  }

  /**
   * Ends the caller's grant to a client: the remembered consent, the codes not yet redeemed, and every sign-in made
   * there (its refresh tokens fail, its access tokens are refused at once on every instance). 404 when there is none.
   */
  async revoke(principal: Principal, clientId: string): Promise<void> {
    const userId = userOf(principal);
    const now = this.clock.nowMs();
    const families = await this.unitOfWork.run(async ({ manager }) => {
      const only = onlyClientOf(principal);
      const reachable = only === undefined || only === clientId;
      if (userId === undefined || !reachable || !(await this.grants.delete(userId, clientId, manager))) {
        throw new TokenAdminError(
          TokenAdminErrorCode.GrantNotFound,
          `You have given no consent to a client ${JSON.stringify(clientId.slice(0, 64))}.`,
        );
      }
      await this.codes.deleteForUserAtClient(userId, clientId, manager);
      return this.refreshTokens.revokeSignInsOfUserAtClient(userId, clientId, now, manager);
    });
    for (const familyId of families) this.status.invalidateSignIn(familyId);
  }
}

/**
 * The one client whose grant a token may see and withdraw: a registered application acts for the person only with
 * their consent to it, not to list or withdraw what they allowed other applications. The administration interface
 * (the person's own account pages) sees them all.
 */
function onlyClientOf(principal: Principal): string | undefined {
  return principal.clientId === ADMIN_CLIENT_ID ? undefined : principal.clientId;
}

function userOf(principal: Principal): number | undefined {
  const subject = parseSubject(principal.subject);
  return subject?.kind === 'user' ? subject.id : undefined;
}
