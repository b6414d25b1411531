import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber } from '@file-fields/nest';
import { User } from './user.entity.js';

/**
 * A person's remembered consent to a registered OAuth client: the permissions they allowed it. A request for no more
 * than these skips the consent page; the person sees and revokes it at /api/me/grants.
 */
@Entity({ name: 'oauth_grants' })
@Index('ux_oauth_grants_user_client', ['userId', 'clientId'], { unique: true })
@Index('ix_oauth_grants_client', ['clientId'])
export class OAuthGrant {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'user_id', type: 'integer' })
  @ForeignKey(() => User, { onDelete: 'CASCADE' })
  userId!: number;

  @Column({ name: 'client_id', type: 'varchar', length: 64 })
  clientId!: string;

  @Column({ type: 'simple-json' })
  scopes!: string[];

  /** When the person last allowed it (epoch ms). */
  @Column({ name: 'granted_at', type: 'bigint', transformer: bigintNumber })
  grantedAt!: number;
}
