import { Column, Entity, Index } from 'typeorm';
import { PendingUpload } from '../../intake/pending/pending-upload.entity.js';
import { bigintNumber } from '../../../database/transformers.js';

/** A direct upload in progress: an S3 multipart upload whose parts the client sends straight to the bucket. */
@Entity({ name: 'direct_uploads' })
@Index('ix_direct_uploads_expires', ['expiresAt'])
@Index('ix_direct_uploads_subject', ['subject'])
@Index('ix_direct_uploads_slot', ['attachmentType', 'attachmentId', 'field'])
export class DirectUpload extends PendingUpload {
  @Column({ name: 's3_upload_id', type: 'varchar', length: 1024 })
  s3UploadId!: string;

  /** Declared by the client: the object must have exactly this many bytes. */
  @Column({ type: 'bigint', transformer: bigintNumber })
  size!: number;

  @Column({ name: 'part_size', type: 'bigint', transformer: bigintNumber })
  partSize!: number;

  /** Declared by the client and checked up front; the record takes the type sniffed from the stored bytes. */
  @Column({ name: 'content_type', type: 'varchar', length: 255 })
  contentType!: string;

  @Column({ type: 'varchar', length: 255 })
  filename!: string;

  /** Set while one request completes it, so that a second completion is refused rather than recorded twice. */
  @Column({ name: 'completing_at', type: 'bigint', nullable: true, transformer: bigintNumber })
  completingAt!: number | null;
}
