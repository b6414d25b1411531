import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** An ES256 key pair that signs access tokens; stored in the database so every instance shares it. */
@Entity({ name: 'signing_keys' })
export class SigningKey {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  kid!: string;

  @Column({ type: 'varchar', length: 16 })
  algorithm!: string;

  @Column({ name: 'private_key', type: 'text' })
  privateKey!: string;

  @Column({ name: 'public_key', type: 'text' })
  publicKey!: string;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;
}
