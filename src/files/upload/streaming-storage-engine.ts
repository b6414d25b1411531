import type { Request } from 'express';
import type { StorageEngine } from 'multer';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import type { FileStorage } from '../storage/file-storage.js';
import { ByteInspector, SNIFF_BYTES } from './byte-inspector.js';
import type { ImageProbe, ImageSize } from '../images/probe/image-probe.js';
import { storageFault } from '../files.errors.js';
import { isAccepted } from './accept-policy.js';
import { typeNotAccepted } from './upload-refusals.js';
import type { ReceiveOptions } from './multipart-receiver.js';
import { sniffMimeType } from './sniff-mime-type.js';

/** What the engine learns of each part while storing it: where it went, and what the bytes were. */
export interface StoredPart {
  key: string;
  originalName: string;
  size: number;
  checksumSha256: string;
  mimeType: string;
  /** The size of a raster image, read from its header; null for other files. */
  image?: ImageSize | null;
}

type MulterFile = Express.Multer.File;
type HandleCallback = (error?: unknown, info?: Partial<MulterFile> & { stored?: StoredPart }) => void;

/**
 * How much of an upload that starts like a raster image is kept to read its size from: enough for the header of
 * nearly every JPEG (it follows the EXIF data and colour profile); beyond it the stored object is read back.
 */
const IMAGE_HEAD_BYTES = 256 * 1024;

/**
 * A multer storage engine that streams each part straight to {@link FileStorage} while hashing it,
 * counting it and keeping its first bytes for type sniffing. Nothing is buffered in memory.
 */
export class StreamingStorageEngine implements StorageEngine {
  constructor(
    private readonly storage: FileStorage,
    private readonly options: Pick<ReceiveOptions, 'newKey' | 'accept' | 'images'>,
    private readonly images?: Pick<ImageProbe, 'inspect'>,
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
    const inspector = new ByteInspector({ imageHeadBytes: IMAGE_HEAD_BYTES });
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
    const mimeType = await sniffMimeType(head.subarray(0, SNIFF_BYTES));
    let image: ImageSize | null | undefined;
    try {
      if (!isAccepted(mimeType, this.options.accept)) {
        throw typeNotAccepted(mimeType, this.options.accept, { name: sanitizeName(file.originalname) });
      }
      image = await this.images?.inspect({ key, head, size: inspector.size, mimeType }, this.options.images);
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

/** C0 and C1 control characters and DEL. */
// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Bidirectional formatting characters: U+202E can show `evil\u202Egnp.exe` as `evilexe.png`, hiding an extension.
 * Embeddings and overrides (U+202A-U+202E), isolates (U+2066-U+2069) and the marks LRM, RLM and ALM.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/**
 * Keeps the client's file name for display only: no directories, no control characters, no bidirectional
 * formatting characters, at most 255 characters.
 */
export function sanitizeName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.replace(CONTROLS, '').replace(BIDI_CONTROLS, '').trim();
  // Cut by code points: slicing UTF-16 units could split an emoji into a lone surrogate that PostgreSQL refuses.
  return [...(clean || 'file')].slice(0, 255).join('');
}
