import type { EntityManager } from 'typeorm';
import type { PendingUpload } from './pending-upload.entity.js';

/** A pending upload as the open-upload limits count it. */
export interface OpenUpload {
  attachmentType: string;
  attachmentId: number;
  field: string;
  subject: string;
  /** The declared length; null while unknown. */
  bytes: number | null;
  /** When it stops counting, expired. */
  expiresAt: number;
}

/** Which open uploads to count: a principal's, or those into one field of one entity. */
export type OpenUploadsOf = { subject: string } | { attachmentType: string; attachmentId: number; field: string };

/**
 * One kind of pending upload (resumable, direct to S3), each in a table of its own, as intake sees it: the open ones
 * the limits count, and the expired ones the one sweep ends. The transports provide them under PENDING_UPLOAD_KINDS.
 */
export interface PendingUploadKind {
  readonly name: 'resumable' | 'direct';
  /** The uploads matching `of` that have not expired, read in `manager`'s transaction. */
  open(manager: EntityManager, of: OpenUploadsOf, nowMs: number): Promise<OpenUpload[]>;
  /** Uploads whose time ran out and that no request is working on, oldest first. */
  expired(nowMs: number, limit: number): Promise<PendingUpload[]>;
  /** Removes what the upload left in the storage; an upload whose bytes are already gone is not an error. */
  dropBytes(upload: PendingUpload): Promise<void>;
  /** Deletes the upload's row in the transaction. */
  deleteRow(id: number, manager: EntityManager): Promise<void>;
  /** Removes (in a dry run only names) bytes no upload refers to that are older than the cutoff. */
  sweepStrays?(graceCutoffMs: number, dryRun: boolean): Promise<string[]>;
}

export const PENDING_UPLOAD_KINDS = Symbol('PENDING_UPLOAD_KINDS');
