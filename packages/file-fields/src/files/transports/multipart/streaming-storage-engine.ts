import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import { storageFault } from '../../../errors/files.errors.js';
import { type FileStorage } from '../../../storage/file-storage.js';
import type { ImageSize } from '../../images/probe/image-probe.js';
import { sanitizeName } from '../../intake/inspection/file-name.js';
import { acceptedType, headInspector, type StoredPart } from '../../intake/inspection/upload-inspection.js';

/** How the engine names and checks each part it stores. */
export interface PartOptions {
  /** Generates the storage key of each part. */
  newKey: () => string;
  /** The field's accepted types (see isAccepted); judged on the sniffed type. */
  accept?: readonly string[];
  /** Checks an image by the field's rules (size, decodability), throwing the refusal; without it nothing is read. */
  inspectImage?: (key: string, head: Buffer, size: number, mimeType: string) => Promise<ImageSize | null>;
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
    private readonly options: PartOptions,
  ) {}

  /** The client file name of the part received last: a refusal multer raises (its size limit) names no file. */
  lastName?: string;

  _handleFile(_req: Request, file: MulterFile, callback: HandleCallback): void {
    this.lastName = sanitizeName(file.originalname);
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
    const inspector = headInspector();
    const body = new PassThrough();
    // The storage consumes `body` while the inspector feeds it; both must finish.
    const feeding = pipeline(file.stream, inspector, body);
    const storing = this.storage.put(key, body);
    try {
      await Promise.all([feeding, storing]);
    } catch (error) {
      body.destroy();
      // Destroying `body` settles both sides. A storage fault (full disk, read-only disk, S3 down) decides the
      // answer even when the feeding side reported it first, as a pipeline passes the storage's error along.
      const [, stored] = await Promise.allSettled([feeding, storing]);
      await this.storage.delete(key).catch(() => undefined);
      throw (stored.status === 'rejected' ? storageFault(stored.reason) : undefined) ?? error;
    }
    const head = inspector.head();
    let mimeType: string;
    let image: ImageSize | null | undefined;
    try {
      mimeType = await acceptedType(head, this.options.accept, sanitizeName(file.originalname));
      image = await this.options.inspectImage?.(key, head, inspector.size, mimeType);
    } catch (error) {
      await this.storage.delete(key).catch(() => undefined);
      throw storageFault(error) ?? error;
    }
    return {
      key,
      originalName: sanitizeName(file.originalname),
      size: inspector.size,
      checksumSha256: inspector.checksum(),
      mimeType,
      image,
    };
  }
}
