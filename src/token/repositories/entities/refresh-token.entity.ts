import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber } from '@file-fields/nest';
import { User } from './user.entity.js';

/**
 * One refresh token of a sign-in (its family), bound to the client it was issued to; only its SHA-256 is stored.
 * Times are epoch milliseconds.
 */
@Entity({ name: 'refresh_tokens' })
@Index('ix_refresh_tokens_family', ['familyId'])
@Index('ix_refresh_tokens_user', ['userId'])
@Index('ix_refresh_tokens_client', ['clientId'])
export class RefreshToken {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'token_hash', type: 'varchar', length: 64, unique: true })
  tokenHash!: string;

  @Column({ name: 'family_id', type: 'varchar', length: 36 })
  familyId!: string;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => User, { onDelete: 'CASCADE' })
  userId!: number;

  /** `administration`, or a registered client's `app_…`: only that client may refresh or revoke it. */
  @Column({ name: 'client_id', type: 'varchar', length: 64 })
  clientId!: string;

  @Column({ type: 'varchar', length: 2000 })
  scope!: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber })
  createdAt!: number;

  @Column({ name: 'idle_expires_at', type: 'bigint', transformer: bigintNumber })
  idleExpiresAt!: number;

  @Column({ name: 'absolute_expires_at', type: 'bigint', transformer: bigintNumber })
  absoluteExpiresAt!: number;

  /** Set when the token was exchanged (rotated); a second use is a reuse. */
  @Column({ name: 'used_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  usedAt!: number | null;

  @Column({ name: 'revoked_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  revokedAt!: number | null;
}
