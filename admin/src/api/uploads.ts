import type { Schemas } from './client';
import type { ApiError } from './problems';

export type FileRecord = Schemas['FileRecord'];

/** The upload route's path (in openapi.json, one `upload<Type><Field>` operation per field), filled in. */
export const uploadPath = (attachmentType: string, attachmentId: number, fieldName: string) =>
  `/files/${encodeURIComponent(attachmentType)}/${attachmentId}/${encodeURIComponent(fieldName)}`;

/** The field of an entity uploads go to. */
export interface UploadTarget {
  attachmentType: string;
  attachmentId: number;
  fieldName: string;
}

/** What an upload queue reports, by the id `UploadQueue.add` gave the upload. */
export interface UploadListener {
  /** Bytes the service has been sent so far, of `total`. */
  progress(id: string, sent: number, total: number): void;
  /** The service already holds `offset` bytes of the file (an earlier attempt, a pause, a reload): it goes on there. */
  resuming(id: string, offset: number, total: number): void;
  /** The service stored the whole file and made its record. */
  completed(id: string): void;
  /** The service refused the upload, or could not be reached after a few tries. */
  failed(id: string, error: ApiError): void;
}

/** The uploads to one field, one after another in the order added (a multi field keeps that order). */
export interface UploadQueue {
  /** Queues `file` and returns its upload's id; throws when the same file is in the queue already. */
  add(file: File): string;
  /** Stops sending; what the service received stays there. */
  pause(id: string): void;
  /** Goes on from what the service holds. */
  resume(id: string): void;
  /** Tries a failed upload again, from what the service holds. */
  retry(id: string): void;
  /** Stops the upload and ends it at the service, which drops its bytes; forgets a failed one. */
  cancel(id: string): void;
  /** Pauses every upload, keeping what the service holds so that picking the file again resumes it. */
  close(): void;
}

/** Opens the upload queue of a field (loading the uploader's code on first use). */
export type Uploader = (target: UploadTarget, listener: UploadListener) => Promise<UploadQueue>;
