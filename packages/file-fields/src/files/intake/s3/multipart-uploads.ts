import type { Readable } from 'node:stream';

/** One part of a multipart upload, as the client reports it after uploading it (direct uploads) or as it was sent. */
export interface UploadedPart {
  partNumber: number;
  etag: string;
}

/** A part's presigned upload URL and the exact number of bytes it must carry. */
export interface PartUrl {
  partNumber: number;
  url: string;
  size: number;
}

/**
 * The storage's own multipart uploads (S3 CreateMultipartUpload, UploadPart, CompleteMultipartUpload,
 * AbortMultipartUpload): direct uploads hand their part URLs to clients, resumable uploads send their parts from
 * here. Only an S3 storage has them.
 */
export interface MultipartUploads {
  /** Starts a multipart upload of `key`; resolves to the storage's upload id. */
  create(key: string): Promise<string>;
  /** Sends one part of `size` bytes; resolves to its ETag. */
  uploadPart(key: string, uploadId: string, partNumber: number, body: Readable, size: number): Promise<string>;
  /** Presigned UploadPart URLs for parts of `partSize` bytes (the last one shorter) of a `size`-byte object. */
  presignParts(key: string, uploadId: string, size: number, partSize: number, expiresIn: number): Promise<PartUrl[]>;
  /** Joins the parts into the object `key`. */
  complete(key: string, uploadId: string, parts: UploadedPart[]): Promise<void>;
  /** Ends the upload and drops its parts; an upload that is already gone is not an error. */
  abort(key: string, uploadId: string): Promise<void>;
  /** The stored object's size in bytes, or undefined when there is none. */
  sizeOf(key: string): Promise<number | undefined>;
}
