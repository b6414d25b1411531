import { Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { Role } from './role.entity.js';

/** A person who signs in to the administration interface (authorization code flow, or the password grant). */
@Entity({ name: 'users' })
export class User {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 64, unique: true })
  username!: string;

  /** scrypt, as `scrypt$N$r$p$salt$hash` (base64url). */
  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash!: string;

  @Column({ name: 'role_id', type: 'integer' })
  @ForeignKey(() => Role)
  roleId!: number;

  /** Raised on password change: tokens carry the version they were issued under, older ones stop working. */
  @Column({ name: 'token_version', type: 'integer', default: 0 })
  tokenVersion!: number;

  @CreateDateColumn({ name: 'created_at' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt!: Date;
}
