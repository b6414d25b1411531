import { Inject, Injectable } from '@nestjs/common';
import { BoundedCache } from '../../common/bounded-cache.js';
import { Clock } from '@file-fields/nest';
import { SYSTEM_PRINCIPAL } from '../../common/auth/principal.js';
import { SubjectPermissions } from '../../common/auth/subject-permissions.js';
import { integrationExpired } from '../repositories/entities/integration.entity.js';
import { IntegrationsRepository } from '../repositories/integrations.repository.js';
import { RolesRepository } from '../repositories/roles.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { EVERYTHING, SubjectStatusService } from '../revocation/subject-status.service.js';
import { parseSubject } from '../credentials/subjects.js';
import { tokenConfig, type TokenConfig } from '../token.config.js';

const CACHE_LIMIT = 10_000;

/**
 * {@link SubjectPermissions} from the subject's role, kept for REVOCATION_CACHE_SECONDS and forgotten, on every
 * instance, whenever the subject's token state is (a role narrowed, an integration disabled or given another role).
 */
@Injectable()
export class RolePermissions extends SubjectPermissions {
  private readonly cache = new BoundedCache<readonly string[]>(CACHE_LIMIT);

  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly users: UsersRepository,
    private readonly roles: RolesRepository,
    status: SubjectStatusService,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
    private readonly clock: Clock,
  ) {
    super();
    status.onForget((key) => (key === EVERYTHING ? this.cache.clear() : this.cache.delete(key)));
  }

  async of(subject: string): Promise<readonly string[]> {
    if (subject === SYSTEM_PRINCIPAL.subject) return SYSTEM_PRINCIPAL.scopes;
    const now = this.clock.nowMs();
    const cached = this.cache.get(subject, now);
    if (cached) return cached;
    const permissions = Object.freeze(await this.load(subject, now));
    this.cache.set(subject, permissions, now + this.config.revocationCacheMs);
    return permissions;
  }

  private async load(sub: string, now: number): Promise<string[]> {
    const subject = parseSubject(sub);
    let roleId: number | undefined;
    if (subject?.kind === 'integration') {
      const integration = await this.integrations.findById(subject.id);
      if (integration?.active && !integrationExpired(integration, now)) roleId = integration.roleId;
    } else if (subject?.kind === 'user') {
      roleId = (await this.users.findById(subject.id))?.roleId;
    }
    const role = roleId === undefined ? null : await this.roles.findById(roleId);
    return role ? [...role.permissions] : [];
  }
}
