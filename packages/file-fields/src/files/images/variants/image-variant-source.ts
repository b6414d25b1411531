import { Injectable } from '@nestjs/common';
import type { FileRecord } from '../../records/file-record.entity.js';
import { FileVariantSource, type StoredVariant } from '../../urls/file-variant-source.js';
import { FileVariants } from './file-variants.service.js';

/** The image variants a signed URL may name: the current, stored variants of the record's field. */
@Injectable()
export class ImageVariantSource extends FileVariantSource {
  constructor(private readonly variants: FileVariants) {
    super();
  }

  find(record: FileRecord, name: string): Promise<StoredVariant | undefined> {
    const variant = this.variants.storedNamed(record, name);
    return Promise.resolve(
      variant && {
        storageKey: variant.storageKey,
        mimeType: variant.mimeType,
        size: variant.size,
        checksumSha256: variant.checksumSha256,
      },
    );
  }
}
