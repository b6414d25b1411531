import { Column, Entity, Index } from 'typeorm';
import { PendingUpload } from '../../../intake/pending/pending-upload.entity.js';
import { bigintNumber } from '../../../../database/transformers.js';

/**
 * An upload under way to one file field, resumable from any instance (tus or the IETF draft), its bytes appended
 * request by request.
 */
@Entity({ name: 'resumable_uploads' })
@Index('ix_resumable_uploads_expires', ['expiresAt'])
@Index('ux_resumable_uploads_storage_key', ['storageKey'], { unique: true })
@Index('ix_resumable_uploads_subject', ['subject'])
@Index('ix_resumable_uploads_slot', ['attachmentType', 'attachmentId', 'field'])
export class ResumableUpload extends PendingUpload {
  /** `tus` or `draft`: the protocol it was created with, in which its resource answers a request that names none. */
  @Column({ type: 'varchar', length: 8, default: 'tus' })
  protocol!: 'tus' | 'draft';

  /** Null while the client defers the length (tus Upload-Defer-Length). */
  @Column({ name: 'declared_length', type: 'bigint', nullable: true, transformer: bigintNumber })
  declaredLength!: number | null;

  /** Bytes stored so far; "offset" is a reserved word in SQL. */
  @Column({ name: 'upload_offset', type: 'bigint', transformer: bigintNumber })
  offset!: number;

  @Column({ name: 'original_name', type: 'varchar', length: 255 })
  originalName!: string;

  /** The client's metadata as it sent it (tus Upload-Metadata), shown back on HEAD. */
  @Column({ type: 'varchar', length: 4096, nullable: true })
  metadata!: string | null;

  /** The type sniffed from the first bytes, once enough have arrived. */
  @Column({ name: 'mime_type', type: 'varchar', length: 255, nullable: true })
  mimeType!: string | null;

  /** What the storage keeps of the upload between requests (S3: its multipart upload, parts and tail), as JSON. */
  @Column({ name: 'storage_state', type: 'text', nullable: true })
  storageState!: string | null;

  /** While a request appends: until when it holds the upload, and which request it is. */
  @Column({ name: 'lease_until', type: 'bigint', nullable: true, transformer: bigintNumber })
  leaseUntil!: number | null;

  @Column({ name: 'lease_token', type: 'varchar', length: 36, nullable: true })
  leaseToken!: string | null;
}
