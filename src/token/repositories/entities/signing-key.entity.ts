import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '@file-fields/nest';

/** What a key signs: access tokens (ES256), or webhook deliveries (Ed25519, Standard Webhooks' `v1a`). */
export type SigningKeyPurpose = 'access-token' | 'webhook';

/** A key pair that signs for one purpose; stored in the database so every instance shares it. */
@Entity({ name: 'signing_keys' })
export class SigningKey {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  kid!: string;

  @Column({ type: 'varchar', length: 16, default: 'access-token' })
  purpose!: SigningKeyPurpose;

  @Column({ type: 'varchar', length: 16 })
  algorithm!: string;

  @Column({ name: 'private_key', type: 'text' })
  privateKey!: string;

  @Column({ name: 'public_key', type: 'text' })
  publicKey!: string;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  /** When the key starts signing (epoch ms); null: since it was created. Published in the JWKS before that. */
  @Column({ name: 'activates_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  activatesAt!: number | null;

  /** When a newer key took over signing (epoch ms); published until this plus ACCESS_TOKEN_TTL. Null: not retired. */
  @Column({ name: 'retired_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  retiredAt!: number | null;
}
