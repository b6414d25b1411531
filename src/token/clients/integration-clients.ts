import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { BoundedCache } from '../../common/bounded-cache.js';
import { Clock } from '@file-fields/nest';
import { ACCESS_KEY_PATTERN, secretMatches } from '../credentials/client-secrets.js';
import { integrationExpired, type Integration } from '../repositories/entities/integration.entity.js';
import { OAuthError } from '../credentials/oauth-error.js';
import { IntegrationsRepository } from '../repositories/integrations.repository.js';
import { RolesRepository } from '../repositories/roles.repository.js';
import { EVERYTHING, SubjectStatusService } from '../revocation/subject-status.service.js';
import { parseSubject } from '../credentials/subjects.js';
import { tokenConfig, type TokenConfig } from '../token.config.js';
import type { ClientCredentials } from '../credentials/token-request.js';

/** An integration as the client credentials grant needs it: the stored row and its role's permissions. */
export interface IntegrationClient {
  integration: Integration;
  permissions: readonly string[];
}

/** `last_used_at` is written at most this often per integration (and instance). */
const LAST_USED_GRANULARITY_MS = 60_000;

const CACHE_LIMIT = 10_000;

/**
 * The integrations as clients of the token endpoint. Looked up by access key id from a cache that is as fresh as the
 * revocation check (REVOCATION_CACHE_SECONDS, and cleared at once on every instance when an integration or a role's
 * permissions change), so issuing a token reads nothing from the database most of the time. Their use is written to
 * `last_used_at` at most once a minute, after the answer, outside any transaction.
 */
@Injectable()
export class IntegrationClients implements OnModuleInit {
  private readonly logger = new Logger(IntegrationClients.name);
  private readonly cache = new BoundedCache<IntegrationClient>(CACHE_LIMIT);
  /** When each integration's use was last written, epoch ms. */
  private readonly lastWritten = new BoundedCache<number>(CACHE_LIMIT);

  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly roles: RolesRepository,
    private readonly status: SubjectStatusService,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.status.onForget((key) => {
      if (key === EVERYTHING) return this.cache.clear();
      const subject = parseSubject(key);
      if (subject?.kind === 'integration') this.cache.deleteWhere((client) => client.integration.id === subject.id);
    });
  }

  /** The integration with this access key id and its permissions, or null (no such integration). */
  async find(accessKeyId: string): Promise<IntegrationClient | null> {
    if (!ACCESS_KEY_PATTERN.test(accessKeyId)) return null;
    const now = this.clock.nowMs();
    const cached = this.cache.get(accessKeyId, now);
    if (cached) return cached;
    const integration = await this.integrations.findByAccessKey(accessKeyId);
    if (!integration) return null;
    const { permissions } = await this.roles.findExisting(integration.roleId);
    const client = { integration, permissions };
    this.cache.set(accessKeyId, client, now + this.config.revocationCacheMs);
    return client;
  }

  /**
   * The integration that authenticated as `client` with its secret (or its previous one, during a rotation's grace),
   * or invalid_client: no secret, an unknown, disabled or expired client, or a wrong secret (one answer for all).
   */
  async authenticate(client: ClientCredentials): Promise<IntegrationClient> {
    const usedBasic = client.method === 'client_secret_basic';
    if (client.clientSecret === undefined) throw OAuthError.invalidClient('The client secret is missing.', usedBasic);
    const found = await this.find(client.clientId);
    const integration = found?.integration;
    const now = this.clock.nowMs();
    if (
      !found ||
      !integration?.active ||
      integrationExpired(integration, now) ||
      !secretMatches(integration, client.clientSecret, now)
    ) {
      throw OAuthError.invalidClient('Unknown client, disabled or expired client, or wrong secret.', usedBasic);
    }
    return found;
  }

  /** Notes a use in `last_used_at`, unless this instance did within the last minute; never delays the caller. */
  recordUse(id: number): void {
    const now = this.clock.nowMs();
    const key = String(id);
    if (this.lastWritten.get(key, now) !== undefined) return;
    this.lastWritten.set(key, now, now + LAST_USED_GRANULARITY_MS);
    this.integrations.markUsed(id, now).catch((error: unknown) => {
      this.lastWritten.delete(key);
      this.logger.warn({ err: error, integration: id }, 'Could not record the use of an integration');
    });
  }
}
