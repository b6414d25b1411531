import { Column, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber } from '../../../database/transformers.js';

/**
 * What every upload still under way keeps (resumable and direct-to-S3 uploads, each in a table of its own): the
 * field it is for, the principal that started it, where its file will be stored, and when it expires. Its id is a
 * credential of that principal (unguessable, in its URL), so only the id's SHA-256 is stored. Times are epoch ms.
 */
export abstract class PendingUpload {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'id_hash', type: 'varchar', length: 64, unique: true })
  idHash!: string;

  @Column({ name: 'attachment_type', type: 'varchar', length: 64 })
  attachmentType!: string;

  @Column({ name: 'attachment_id', type: 'integer' })
  attachmentId!: number;

  @Column({ type: 'varchar', length: 64 })
  field!: string;

  /** The principal that started it (`integration:<id>`, `user:<id>`): no other may see, continue or end it. */
  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  /** The key the finished file gets, made by the server like every storage key. */
  @Column({ name: 'storage_key', type: 'varchar', length: 512 })
  storageKey!: string;

  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber })
  createdAt!: number;

  @Column({ name: 'expires_at', type: 'bigint', transformer: bigintNumber })
  expiresAt!: number;
}
