import { Injectable } from '@nestjs/common';
import { InvalidTokenError } from '@file-fields/nest';
import type { Principal } from '../../common/auth/principal.js';
import type { Role } from '../repositories/entities/role.entity.js';
import { IntegrationsRepository } from '../repositories/integrations.repository.js';
import { RolesRepository } from '../repositories/roles.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { parseSubject, type Subject } from '../credentials/subjects.js';

/** The user or integration behind an access token. */
export interface CurrentAccount {
  kind: 'user' | 'integration';
  id: number;
  /** A user's username, an integration's label. */
  name: string;
  role: Pick<Role, 'id' | 'name'> | null;
}

/** Who is calling: the subject of the caller's token, as it is stored now. */
@Injectable()
export class CurrentAccountService {
  constructor(
    private readonly users: UsersRepository,
    private readonly integrations: IntegrationsRepository,
    private readonly roles: RolesRepository,
  ) {}

  /**
   * The caller's account. The access guard has just accepted the token, but its subject may have gone since (the
   * guard's view may be REVOCATION_CACHE_SECONDS old): then the token is answered as revoked.
   */
  async of(principal: Principal): Promise<CurrentAccount> {
    const subject = parseSubject(principal.subject);
    const account = subject && (await this.find(subject));
    if (!subject || !account) throw new InvalidTokenError('The access token was revoked.');
    const role = await this.roles.findById(account.roleId);
    return { kind: subject.kind, id: subject.id, name: account.name, role: role && { id: role.id, name: role.name } };
  }

  private async find(subject: Subject): Promise<{ name: string; roleId: number } | null> {
    if (subject.kind === 'user') {
      const user = await this.users.findById(subject.id);
      return user && { name: user.username, roleId: user.roleId };
    }
    const integration = await this.integrations.findById(subject.id);
    return integration && { name: integration.label, roleId: integration.roleId };
  }
}
