import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import { In, IsNull, LessThanOrEqual, Not, type EntityManager } from 'typeorm';
import type { Transaction } from '@file-fields/nest';
import { SecretBox } from '../../secrets/index.js';
import { WebhookEndpoint } from '../entities/webhook-endpoint.entity.js';

export type NewWebhookEndpoint = Pick<
  WebhookEndpoint,
  'url' | 'events' | 'description' | 'secret' | 'signatureScheme' | 'active'
> &
  Partial<Pick<WebhookEndpoint, 'ordering' | 'payload' | 'rateLimit' | 'autoRecover'>>;

/**
 * What the signing secrets are bound to when sealed. Not the endpoint id: it does not exist yet when the row is
 * inserted, and the current secret moves to `previous_secret` on rotation.
 */
export const WEBHOOK_SECRET_CONTEXT = 'webhook_endpoints.secret';

/** Opened secrets kept, keyed by their sealed form: far more than any deployment has endpoints. */
const OPENED_SECRETS_KEPT = 1_000;

/**
 * Registered endpoints and their health; methods given a manager run in its transaction. The signing secrets are
 * sealed with the {@link SecretBox} in the database and plain in the entities returned.
 */
@Injectable()
export class WebhookEndpointsRepository {
  /**
   * Sealed secret → plain secret. A sealed value only ever opens to one secret, so this can never be stale; it spares
   * the dispatcher opening the same secret for every delivery.
   */
  private readonly openedSecrets = new Map<string, string>();

  constructor(
    @InjectEntityManager() private readonly db: EntityManager,
    private readonly box: SecretBox,
  ) {}

  async list(manager: EntityManager = this.db): Promise<WebhookEndpoint[]> {
    const endpoints = await manager.find(WebhookEndpoint, { order: { id: 'ASC' } });
    return endpoints.map((endpoint) => this.opened(endpoint));
  }

  async findById(id: number, manager: EntityManager = this.db): Promise<WebhookEndpoint | null> {
    const endpoint = await manager.findOneBy(WebhookEndpoint, { id });
    return endpoint && this.opened(endpoint);
  }

  /** The endpoints with these ids (in no particular order), in one query. */
  async findByIds(ids: readonly number[], manager: EntityManager = this.db): Promise<WebhookEndpoint[]> {
    if (ids.length === 0) return [];
    const endpoints = await manager.findBy(WebhookEndpoint, { id: In([...new Set(ids)]) });
    return endpoints.map((endpoint) => this.opened(endpoint));
  }

  async create(
    endpoint: NewWebhookEndpoint & Partial<Pick<WebhookEndpoint, 'filter' | 'createdBy' | 'creatorScopes'>>,
    manager: EntityManager = this.db,
  ): Promise<WebhookEndpoint> {
    const saved = await manager.save(manager.create(WebhookEndpoint, { ...endpoint, ...this.sealed(endpoint) }));
    return Object.assign(saved, { secret: endpoint.secret, previousSecret: null });
  }

  /** Writes the endpoint (secrets sealed); the given entity is updated as TypeORM's save would, and returned. */
  async save(endpoint: WebhookEndpoint, manager: EntityManager = this.db): Promise<WebhookEndpoint> {
    const { secret, previousSecret } = endpoint;
    const saved = await manager.save(manager.create(WebhookEndpoint, { ...endpoint, ...this.sealed(endpoint) }));
    return Object.assign(endpoint, saved, { secret, previousSecret });
  }

  async delete(id: number, manager: EntityManager = this.db): Promise<void> {
    await manager.delete(WebhookEndpoint, { id });
  }

  /**
   * A delivery succeeded: the endpoint is no longer failing. Writes (and locks the row) only when it was failing, so
   * the transactions recording successes to one endpoint do not queue behind each other on its row.
   */
  async markHealthy(id: number, manager: EntityManager = this.db): Promise<void> {
    await manager.update(WebhookEndpoint, { id, failingSince: Not(IsNull()) }, { failingSince: null, warnedAt: null });
  }

  /**
   * Deliveries have failed since `failingSince`; with `disabled`, the endpoint is disabled too (and probed from
   * `nextProbeAt` on, null: never). True when this call disabled it: it was active until then (so one disabling is
   * announced once, whoever records what attempt).
   */
  async markFailing(
    id: number,
    failingSince: number,
    disabled?: { reason: string; nextProbeAt: number | null },
    manager: EntityManager = this.db,
  ): Promise<boolean> {
    if (disabled !== undefined) {
      const disable = {
        failingSince,
        active: false,
        disabledReason: disabled.reason,
        nextProbeAt: disabled.nextProbeAt,
      };
      if ((await manager.update(WebhookEndpoint, { id, active: true }, disable)).affected === 1) return true;
    }
    await manager.update(WebhookEndpoint, { id }, { failingSince });
    return false;
  }

  /** Notes that the endpoint's owner was warned at `at`; true when this call did (it was not warned yet). */
  async markWarned(id: number, at: number, manager: EntityManager = this.db): Promise<boolean> {
    const result = await manager.update(WebhookEndpoint, { id, active: true, warnedAt: IsNull() }, { warnedAt: at });
    return result.affected === 1;
  }

  /** Disabled endpoints that recover by themselves and are due for a probe at `now`, at most `limit`. */
  async findProbeDue(now: number, limit: number, manager: EntityManager = this.db): Promise<WebhookEndpoint[]> {
    const endpoints = await manager.find(WebhookEndpoint, {
      where: { active: false, autoRecover: true, nextProbeAt: LessThanOrEqual(now) },
      order: { nextProbeAt: 'ASC' },
      take: limit,
    });
    return endpoints.map((endpoint) => this.opened(endpoint));
  }

  /**
   * Moves a due probe to `next`, if it is still due at `due` (no other instance took it): true when this call did,
   * and then this instance probes.
   */
  async takeProbe(id: number, due: number, next: number, manager: EntityManager = this.db): Promise<boolean> {
    const result = await manager.update(
      WebhookEndpoint,
      { id, active: false, autoRecover: true, nextProbeAt: due },
      { nextProbeAt: next },
    );
    return result.affected === 1;
  }

  /** The endpoint, its row locked until the transaction ends where rows can be locked (SQLite runs one at a time). */
  async findForUpdate(
    id: number,
    tx: Pick<Transaction, 'manager' | 'supportsRowLocks'>,
  ): Promise<WebhookEndpoint | null> {
    const lock = tx.supportsRowLocks ? { lock: { mode: 'pessimistic_write' as const } } : {};
    const endpoint = await tx.manager.findOne(WebhookEndpoint, { where: { id }, ...lock });
    return endpoint && this.opened(endpoint);
  }

  private sealed(endpoint: Pick<WebhookEndpoint, 'secret'> & Partial<Pick<WebhookEndpoint, 'previousSecret'>>) {
    const { secret, previousSecret } = endpoint;
    return {
      secret: this.box.seal(secret, WEBHOOK_SECRET_CONTEXT),
      previousSecret: previousSecret == null ? previousSecret : this.box.seal(previousSecret, WEBHOOK_SECRET_CONTEXT),
    };
  }

  private opened(endpoint: WebhookEndpoint): WebhookEndpoint {
    endpoint.secret = this.open(endpoint.secret);
    if (endpoint.previousSecret !== null) endpoint.previousSecret = this.open(endpoint.previousSecret);
    return endpoint;
  }

  private open(sealed: string): string {
    let secret = this.openedSecrets.get(sealed);
    if (secret === undefined) {
      secret = this.box.open(sealed, WEBHOOK_SECRET_CONTEXT);
      if (this.openedSecrets.size >= OPENED_SECRETS_KEPT) this.openedSecrets.clear();
      this.openedSecrets.set(sealed, secret);
    }
    return secret;
  }
}
