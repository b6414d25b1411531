import { Injectable } from '@nestjs/common';
import type { FileRecord } from '../records/file-record.entity.js';

/** The stored bytes of one variant of a file, as the signed route serves them. */
export interface StoredVariant {
  storageKey: string;
  mimeType: string;
  size: number;
  /** SHA-256 of the variant's bytes (hex): its ETag. */
  checksumSha256: string;
}

/**
 * Where the signed content route finds a file's variants (e.g. an image's thumbnail) by name. The module provides
 * {@link NoFileVariants}; the image variants provide their own (`{ provide: FileVariantSource, useExisting: … }`).
 */
export abstract class FileVariantSource {
  /** The variant `name` of the record, or undefined when the record has no such variant (stored). */
  abstract find(record: FileRecord, name: string): Promise<StoredVariant | undefined>;
}

/** No file has variants. */
@Injectable()
export class NoFileVariants extends FileVariantSource {
  find(): Promise<StoredVariant | undefined> {
    return Promise.resolve(undefined);
  }
}
