import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber } from '@file-fields/nest';
import { User } from './user.entity.js';

/**
 * An authorization code (RFC 6749 §4.1.2), bound to the client, redirect URI, PKCE challenge and user it was issued
 * for. A code is a credential: only its SHA-256 is stored. Times are epoch milliseconds.
 */
@Entity({ name: 'authorization_codes' })
@Index('ix_authorization_codes_expires', ['expiresAt'])
export class AuthorizationCode {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'code_hash', type: 'varchar', length: 64, unique: true })
  codeHash!: string;

  @Column({ name: 'client_id', type: 'varchar', length: 64 })
  clientId!: string;

  @Column({ name: 'redirect_uri', type: 'varchar', length: 2000 })
  redirectUri!: string;

  /** BASE64URL(SHA-256(code_verifier)): S256 is the only method accepted. */
  @Column({ name: 'code_challenge', type: 'varchar', length: 128 })
  codeChallenge!: string;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => User, { onDelete: 'CASCADE' })
  userId!: number;

  /** What was asked for at the authorization endpoint; narrowed to the user's role when the code is redeemed. */
  @Column({ type: 'varchar', length: 2000 })
  scope!: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber })
  createdAt!: number;

  @Column({ name: 'expires_at', type: 'bigint', transformer: bigintNumber })
  expiresAt!: number;

  /** Set by the first redemption, whatever its outcome: a code is never redeemed twice. */
  @Column({ name: 'used_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  usedAt!: number | null;

  /** The sign-in (refresh-token family) the code was exchanged for: revoked when the code comes back. */
  @Column({ name: 'family_id', type: 'varchar', length: 36, nullable: true })
  familyId!: string | null;
}
