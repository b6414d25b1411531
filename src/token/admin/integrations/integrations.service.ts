import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { Page, PageQuery } from '@file-fields/nest';
import type { Principal } from '../../../common/auth/principal.js';
import { Clock, UnitOfWork, type Transaction } from '@file-fields/nest';
import { tokenConfig, type TokenConfig } from '../../token.config.js';
import { ValidationFailedError } from '@file-fields/nest';
import { previousSecretActive, secretMatches } from '../../credentials/client-secrets.js';
import { randomToken, sha256Hex } from '../../crypto/secrets.js';
import { integrationExpired, type Integration } from '../../repositories/entities/integration.entity.js';
import { IntegrationsRepository, type IntegrationEdits } from '../../repositories/integrations.repository.js';
import { SubjectStatusService } from '../../revocation/subject-status.service.js';
import { subjectOf } from '../../credentials/subjects.js';
import { notFound } from '../../token-admin.errors.js';
import { assertHolds } from '../permissions/grant-policy.js';
import { RolesService } from '../roles/roles.service.js';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** A recognisable, unguessable client id: `FFIA` and 20 base32 characters. */
function newAccessKeyId(): string {
  return `FFIA${[...randomBytes(20)].map((byte) => BASE32[byte % 32]).join('')}`;
}

/** 32 random bytes; the `ffsk_` prefix lets secret scanners recognise a leaked one. */
function newSecret(): string {
  return `ffsk_${randomToken(32)}`;
}

/** The lifecycle fields of an integration, as the API names them; `null` clears one. */
export interface IntegrationLifecycleInput {
  /** ISO 8601 date-time, in the future. */
  expires_at?: string | null;
  owner?: string | null;
}

export interface IntegrationInput extends IntegrationLifecycleInput {
  label?: string;
  role?: string;
  active?: boolean;
}

/** An integration as created or rotated, with the secret shown this once. */
export interface IssuedCredentials {
  integration: Integration;
  secret: string;
}

/** Integrations: clients of the client credentials grant. Secrets are stored only as SHA-256. */
@Injectable()
export class IntegrationsService {
  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly roles: RolesService,
    private readonly status: SubjectStatusService,
    private readonly unitOfWork: UnitOfWork,
    @Inject(tokenConfig.KEY) private readonly config: TokenConfig,
    private readonly clock: Clock,
  ) {}

  page(query: PageQuery): Promise<Page<Integration>> {
    return this.integrations.page(query);
  }

  async get(id: number): Promise<Integration> {
    const integration = await this.integrations.findById(id);
    if (!integration) throw notFound('integration', id);
    return integration;
  }

  async create(
    input: { label: string; role: string } & IntegrationLifecycleInput,
    actor: Principal,
  ): Promise<IssuedCredentials> {
    const secret = newSecret();
    const expiresAt = this.futureExpiry(input.expires_at);
    const integration = await this.unitOfWork.run(async (tx) => {
      const { manager } = tx;
      // The role is not deleted meanwhile.
      await this.roles.lockAssignments(tx);
      const role = await this.roles.byName(input.role, manager);
      assertHolds(actor, role.permissions, `give an integration the role "${role.name}"`);
      const created = {
        label: input.label,
        roleId: role.id,
        accessKeyId: newAccessKeyId(),
        secretHash: sha256Hex(secret),
        expiresAt: expiresAt ?? null,
        owner: input.owner ?? null,
      };
      return this.integrations.create(created, manager);
    });
    return { integration, secret };
  }

  /**
   * Disabling or a new role ends the integration's live tokens; enabling it again does not revive them, nor does
   * moving or clearing the `expires_at` of an integration that has expired.
   */
  async update(id: number, input: IntegrationInput, actor: Principal): Promise<Integration> {
    const expiresAt = this.futureExpiry(input.expires_at);
    return this.change(id, actor, 'change', input.role !== undefined, async (found, manager) => {
      const edits: IntegrationEdits = {};
      if (input.role !== undefined) {
        const role = await this.roles.byName(input.role, manager);
        assertHolds(actor, role.permissions, `give an integration the role "${role.name}"`);
        if (role.id !== found.roleId) edits.revoke = true;
        edits.roleId = role.id;
      }
      if (input.label !== undefined) edits.label = input.label;
      if (input.active === false && found.active) edits.revoke = true;
      if (input.active !== undefined) edits.active = input.active;
      if (expiresAt !== undefined) {
        if (this.expired(found)) edits.revoke = true;
        edits.expiresAt = expiresAt;
      }
      if (input.owner !== undefined) edits.owner = input.owner;
      return edits;
    });
  }

  /** Whether the integration's `expires_at` has come: it gets no tokens and its live ones are refused. */
  expired(integration: Integration): boolean {
    return integrationExpired(integration, this.clock.nowMs());
  }

  /** Whether a rotated-out secret still works (its grace period has not ended). */
  previousSecretActive(integration: Integration): boolean {
    return previousSecretActive(integration, this.clock.nowMs());
  }

  /** `expires_at` as epoch ms (null clears, undefined leaves alone); a time not in the future is a 400. */
  private futureExpiry(value: string | null | undefined): number | null | undefined {
    if (value === undefined || value === null) return value;
    const ms = Date.parse(value);
    if (Number.isNaN(ms) || ms <= this.clock.nowMs()) {
      throw new ValidationFailedError([
        { field: 'expires_at', messages: ['expires_at must be an ISO 8601 date-time in the future'] },
      ]);
    }
    return ms;
  }

  /** A new secret; the old one keeps working for SECRET_ROTATION_GRACE (a day by default). */
  async rotateSecret(id: number, actor: Principal): Promise<IssuedCredentials> {
    const secret = newSecret();
    const integration = await this.change(id, actor, 'rotate the secret of', false, (found) => ({
      previousSecretHash: found.secretHash,
      previousSecretExpiresAt: this.clock.nowMs() + this.config.secretRotationGrace * 1000,
      secretHash: sha256Hex(secret),
    }));
    return { integration, secret };
  }

  /** Ends a rotation's grace period now: only the newest secret works from here on. */
  expirePreviousSecret(id: number, actor: Principal): Promise<Integration> {
    return this.change(id, actor, 'expire the previous secret of', false, () => ({
      previousSecretHash: null,
      previousSecretExpiresAt: null,
    }));
  }

  async remove(id: number, actor: Principal): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      await this.touchable(tx, id, actor, 'delete');
      await this.integrations.delete(id, tx.manager);
    });
    this.status.invalidate(subjectOf('integration', id));
  }

  /**
   * Applies `edit` to the integration in one transaction, if `actor` may touch it, and forgets its cached state. The
   * row stays locked from the read `edit` decides on to the write, so concurrent changes apply one after the other;
   * one that `assignsRole` first waits for the other role assignments (see RolesService.lockAssignments).
   */
  private async change(
    id: number,
    actor: Principal,
    action: string,
    assignsRole: boolean,
    edit: (found: Integration, manager: EntityManager) => Promise<IntegrationEdits> | IntegrationEdits,
  ): Promise<Integration> {
    const integration = await this.unitOfWork.run(async (tx) => {
      if (assignsRole) await this.roles.lockAssignments(tx);
      const found = await this.touchable(tx, id, actor, action);
      return this.integrations.applyEdits(id, await edit(found, tx.manager), tx.manager);
    });
    this.status.invalidate(subjectOf('integration', id));
    return integration;
  }

  /** The integration, locked, if `actor` holds every permission it holds (else 403; 404 if there is none). */
  private async touchable(tx: Transaction, id: number, actor: Principal, action: string): Promise<Integration> {
    const found = await this.integrations.findForUpdate(id, tx);
    if (!found) throw notFound('integration', id);
    const role = await this.roles.byId(found.roleId, tx.manager);
    assertHolds(actor, role.permissions, `${action} the integration "${found.label}"`);
    return found;
  }

  /** Constant-time check against the current secret, and the previous one while its grace lasts. */
  secretMatches(integration: Integration, secret: string): boolean {
    return secretMatches(integration, secret, this.clock.nowMs());
  }
}
