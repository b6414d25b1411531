import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import type { FileStorage } from '../storage/file-storage.js';
import { ByteInspector } from './byte-inspector.js';
import { FilesError, FilesErrorCode } from '../files.errors.js';
import { isAccepted } from './accept-policy.js';
import type { ReceiveOptions } from './multipart-receiver.js';
import { sniffMimeType } from './sniff-mime-type.js';

/** What the engine records for each stored part. */
export interface StoredPart {
  key: string;
  originalName: string;
  size: number;
  checksumSha256: string;
  mimeType: string;
}

type MulterFile = Express.Multer.File;
type HandleCallback = (error?: unknown, info?: Partial<MulterFile> & { stored?: StoredPart }) => void;

/**
 * A multer storage engine that streams each part straight to {@link FileStorage} while hashing it,
 * counting it and keeping its first bytes for type sniffing. Nothing is buffered in memory.
 */
export class StreamingStorageEngine implements StorageEngine {
  constructor(
    private readonly storage: FileStorage,
    private readonly options: Pick<ReceiveOptions, 'newKey' | 'accept'>,
  ) {}

  _handleFile(_req: Request, file: MulterFile, callback: HandleCallback): void {
    this.store(file).then(
      (stored) => callback(null, { path: stored.key, size: stored.size, stored }),
      (error: unknown) => callback(error),
    );
  }

  _removeFile(_req: Request, file: MulterFile, callback: (error: Error | null) => void): void {
    if (!file.path) return callback(null);
    this.storage.delete(file.path).then(
      () => callback(null),
      (error: Error) => callback(error),
    );
  }

  private async store(file: MulterFile): Promise<StoredPart> {
    const key = this.options.newKey();
    const inspector = new ByteInspector();
    const body = new PassThrough();
    // The storage consumes `body` while the inspector feeds it; both must finish.
    await Promise.all([pipeline(file.stream, inspector, body), this.storage.put(key, body)]).catch(async (error) => {
      body.destroy();
      await this.storage.delete(key).catch(() => undefined);
      throw error;
    });
    const mimeType = await sniffMimeType(inspector.head());
    if (!isAccepted(mimeType, this.options.accept)) {
      await this.storage.delete(key);
      throw new FilesError(FilesErrorCode.UnsupportedMediaType, `This field does not accept ${mimeType} files.`);
    }
    return {
      key,
      originalName: sanitizeName(file.originalname),
      size: inspector.size,
      checksumSha256: inspector.checksum(),
      mimeType,
    };
  }
}

/** Keeps the client's file name for display only: no directories, no control characters, bounded length. */
export function sanitizeName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'file').slice(0, 255);
}
