import { bigintNumber } from '@file-fields/nest';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * An application registered to send people to the sign-in page (authorization code flow with PKCE). A confidential
 * one authenticates at the token endpoint with its secret, stored only as SHA-256; a public one has none.
 */
@Entity({ name: 'oauth_clients' })
export class OAuthClient {
  @PrimaryGeneratedColumn()
  id!: number;

  /** Public and random: the application sends it in every request. */
  @Column({ name: 'client_id', type: 'varchar', length: 64, unique: true })
  clientId!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** Compared by exact string at the authorization and token endpoints. */
  @Column({ name: 'redirect_uris', type: 'simple-json' })
  redirectUris!: string[];

  @Column({ type: 'boolean' })
  public!: boolean;

  /** The ceiling: no token issued to it carries more, whoever signs in. Never more than its registrar held. */
  @Column({ type: 'simple-json' })
  scopes!: string[];

  /** What a request without `scope` gets (a part of the ceiling); null: the whole ceiling. */
  @Column({ name: 'default_scopes', type: 'simple-json', nullable: true })
  defaultScopes!: string[] | null;

  /** SHA-256 of the secret (hex), confidential clients only: the secret is 32 random bytes, a slow hash adds nothing. */
  @Column({ name: 'secret_hash', type: 'varchar', length: 64, nullable: true })
  secretHash!: string | null;

  /** The secret a rotation replaced, accepted until `previousSecretExpiresAt` (SECRET_ROTATION_GRACE). */
  @Column({ name: 'previous_secret_hash', type: 'varchar', length: 64, nullable: true })
  previousSecretHash!: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  previousSecretExpiresAt!: number | null;

  /** Who registered it: `user:<id>` or `integration:<id>`. */
  @Column({ name: 'created_by', type: 'varchar', length: 80 })
  createdBy!: string;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt!: Date;
}
