import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { bigintNumber } from '@file-fields/nest';
import type { SignatureScheme } from '../sending/webhook-signer.js';

/**
 * A registered receiver of webhooks. HMAC needs the signing secrets themselves: the repository seals them
 * (SECRETS_KEY) in the database and opens them on reading, so entities hold them in plain.
 */
/** An endpoint's `filter`: which events, among those of the kinds it subscribes to, it receives. */
export interface WebhookEndpointFilter {
  /** Only events about these attachment types; events about none (webhook.*) always pass. */
  attachment_types?: string[];
}

/** `per-entity`: events about one entity reach the endpoint in the order they were written. */
export const ORDERINGS = ['none', 'per-entity'] as const;
export type Ordering = (typeof ORDERINGS)[number];

/** `thin`: the event's id, kind, time and a reference to its object, which the receiver fetches itself. */
export const PAYLOADS = ['full', 'thin'] as const;
export type Payload = (typeof PAYLOADS)[number];

@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpoint {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  /** Event kinds, or `*` for all. */
  @Column({ type: 'simple-json' })
  events!: string[];

  /** Which events of those kinds it receives (by attachment type); null: all of them. */
  @Column({ type: 'simple-json', nullable: true })
  filter!: WebhookEndpointFilter | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description!: string | null;

  @Column({ type: 'text' })
  secret!: string;

  @Column({ name: 'previous_secret', type: 'text', nullable: true })
  previousSecret!: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  previousSecretExpiresAt!: number | null;

  /** How deliveries are signed with `secret`, whose format depends on it; `github` for endpoints made before. */
  @Column({ name: 'signature_scheme', type: 'varchar', length: 16, default: 'github' })
  signatureScheme!: SignatureScheme;

  /** The scheme `previous_secret` signs in: a rotation may change the scheme. Null when there is no previous secret. */
  @Column({ name: 'previous_signature_scheme', type: 'varchar', length: 16, nullable: true })
  previousSignatureScheme!: SignatureScheme | null;

  @Column({ type: 'varchar', length: 16, default: 'none' })
  ordering!: Ordering;

  @Column({ type: 'varchar', length: 8, default: 'full' })
  payload!: Payload;

  /** Deliveries per second at most, from all instances together; null: as fast as the concurrency allows. */
  @Column({ name: 'rate_limit', type: 'integer', nullable: true })
  rateLimit!: number | null;

  /** Whether a disabled endpoint is probed and, once it answers, re-enabled with its missed events sent. */
  @Column({ name: 'auto_recover', type: 'boolean', default: false })
  autoRecover!: boolean;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 200, nullable: true })
  disabledReason!: string | null;

  /** When deliveries to it started failing without a success since; null while healthy. */
  @Column({ name: 'failing_since', type: 'bigint', nullable: true, transformer: bigintNumber })
  failingSince!: number | null;

  /** When its owner was warned that it is failing (webhook.endpoint.failing); null while healthy or not yet. */
  @Column({ name: 'warned_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  warnedAt!: number | null;

  /** When a disabled endpoint that recovers by itself is next probed; null otherwise. */
  @Column({ name: 'next_probe_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  nextProbeAt!: number | null;

  /** Who created it (`integration:<id>`, `user:<id>`); null for endpoints made before this was recorded. */
  @Column({ name: 'created_by', type: 'varchar', length: 80, nullable: true })
  createdBy!: string | null;

  /**
   * The scope of the token that created it. It receives only the events both this scope and the creator's current
   * role let it read; null (with `created_by`) for endpoints made before, which receive every event.
   */
  @Column({ name: 'creator_scopes', type: 'simple-json', nullable: true })
  creatorScopes!: string[] | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt!: Date;
}
