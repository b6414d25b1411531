import { Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { bigintNumber } from '@file-fields/nest';
import { Role } from './role.entity.js';

/** A non-human client that obtains tokens with the client credentials grant. */
@Entity({ name: 'integrations' })
export class Integration {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 200 })
  label!: string;

  /** The public client_id, with a recognisable prefix. */
  @Column({ name: 'access_key_id', type: 'varchar', length: 64, unique: true })
  accessKeyId!: string;

  /** SHA-256 of the secret (hex): the secret is 32 random bytes, so a slow hash adds nothing. */
  @Column({ name: 'secret_hash', type: 'varchar', length: 64 })
  secretHash!: string;

  @Column({ name: 'previous_secret_hash', type: 'varchar', length: 64, nullable: true })
  previousSecretHash!: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  previousSecretExpiresAt!: number | null;

  @Column({ name: 'role_id', type: 'integer' })
  @ForeignKey(() => Role)
  roleId!: number;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  /** Raised when the integration is disabled or its role changes: tokens issued under an older version stop working. */
  @Column({ name: 'token_version', type: 'integer', default: 0 })
  tokenVersion!: number;

  @Column({ name: 'last_used_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  lastUsedAt!: number | null;

  /** When the integration stops working (epoch ms): no new tokens, and its live ones are refused; null: never. */
  @Column({ name: 'expires_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  expiresAt!: number | null;

  /** Free text: who answers for the integration. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  owner!: string | null;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt!: Date;
}

/** Whether the integration's `expires_at` has come. */
export function integrationExpired(integration: Pick<Integration, 'expiresAt'>, nowMs: number): boolean {
  return integration.expiresAt !== null && integration.expiresAt <= nowMs;
}
