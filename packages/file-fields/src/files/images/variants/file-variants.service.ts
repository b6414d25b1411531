import { Injectable } from '@nestjs/common';
import { FileRecordDto } from '../../records/file-record.dto.js';
import { FileRecord } from '../../records/file-record.entity.js';
import { FileRecordsRepository, type FileRecordRow } from '../../records/file-records.repository.js';
import { FilesError, FilesErrorCode } from '../../../errors/files.errors.js';
import { FileUrls } from '../../urls/file-urls.js';
import { FileVariantDto } from '../../records/file-variant.dto.js';
import type { VariantTarget } from './variant-pipeline.js';
import { VariantProduction, type VariantSource } from './variant-production.js';
import { isStored, type StoredVariant } from '../../records/variant-state.js';

/**
 * The image variants of file records: listed on responses, and served as records of their own. They are made (by
 * VariantProduction) in the background after an upload commits, or when a response or a request finds one missing;
 * stored next to their original, and recorded in the record's `variants`.
 */
@Injectable()
export class FileVariants {
  constructor(
    private readonly production: VariantProduction,
    private readonly fileRecords: FileRecordsRepository,
    private readonly urls: FileUrls,
  ) {}

  /** The JSON of a record, with `variants` when its field declares them. */
  async toDto(record: FileRecordRow): Promise<FileRecordDto> {
    const dto = FileRecordDto.from(record, await this.urls.urlOf(record));
    const variants = await this.describe(record);
    if (variants) dto.variants = variants;
    return dto;
  }

  /**
   * The `variants` of a record in a response: undefined when its field declares none; each declared variant by name
   * otherwise, null while it is being made (which this starts, when it is not under way); {} for a file that is no
   * raster image. A variant that cannot be made of the file is left out.
   */
  async describe(record: VariantSource): Promise<Record<string, FileVariantDto | null> | undefined> {
    if (!this.production.fieldOf(record)?.variants) return undefined;
    const described: Record<string, FileVariantDto | null> = {};
    let missing = false;
    for (const target of this.production.targetsOf(record)) {
      const state = record.variants?.[target.name];
      if (state?.key !== target.key) {
        described[target.name] = null;
        missing = true;
      } else if (isStored(state)) {
        const url = await this.urls.urlOf(record, { name: target.name, storageKey: state.key });
        described[target.name] = FileVariantDto.from(state, url);
      }
    }
    if (missing) this.production.later([record]);
    return described;
  }

  /** Starts making the missing variants of these records in the background (see VariantProduction.later). */
  produceLater(records: readonly VariantSource[], requester?: string): void {
    this.production.later(records, requester);
  }

  /**
   * The variant `name` of a record as a record of its own (its key, type, size, checksum and a download name), made
   * now when it is missing. 404 for a name the field does not declare, for a file that is no raster image, and for an
   * image the variant cannot be made of.
   */
  async variantOf(record: FileRecord, name: string): Promise<FileRecord> {
    const target = this.production.targetsOf(record).find((candidate) => candidate.name === name);
    if (!target) throw variantNotFound(`File ${record.id} has no variant "${name}".`);
    let state = record.variants?.[name];
    if (state?.key !== target.key) {
      await this.production.now(record);
      state = (await this.fileRecords.findById(record.id))?.variants?.[name];
    }
    if (state?.key !== target.key) {
      // Replaced or deleted while the variant was made, or the service is stopping.
      throw new FilesError(FilesErrorCode.FileContentUnavailable, `The variant "${name}" is not ready; retry.`);
    }
    if (!isStored(state)) throw variantNotFound(`Variant "${name}" cannot be made of file ${record.id}.`);
    return asRecord(record, target, state);
  }

  /** The variant `name` of a record as a record of its own, if it is stored and current. */
  storedNamed(record: FileRecord, name: string): FileRecord | undefined {
    const target = this.production.targetsOf(record).find((candidate) => candidate.name === name);
    return target && this.storedUnder(record, target.key);
  }

  /** The variant of a record stored under `storageKey` as a record of its own, if it is a current one. */
  storedUnder(record: FileRecord, storageKey: string): FileRecord | undefined {
    const target = this.production.targetsOf(record).find((candidate) => candidate.key === storageKey);
    const state = target && record.variants?.[target.name];
    return target && isStored(state) && state.key === storageKey ? asRecord(record, target, state) : undefined;
  }

  /** Resolves once no variant is being made: those under way now, and any started meanwhile, are made or failed. */
  async settled(): Promise<void> {
    await this.production.settled();
  }
}

function variantNotFound(detail: string): FilesError {
  return new FilesError(FilesErrorCode.VariantNotFound, detail);
}

/** A variant as a record of its own, for the content routes: the original's record with the variant's bytes. */
function asRecord(record: FileRecord, target: VariantTarget, state: StoredVariant): FileRecord {
  const stem = record.originalName.replace(/\.[^.]*$/, '') || 'file';
  return Object.assign(new FileRecord(), record, {
    storageKey: state.key,
    originalName: `${stem}-${target.name}.${state.key.slice(state.key.lastIndexOf('.') + 1)}`,
    mimeType: state.mimeType,
    size: state.size,
    checksumSha256: state.checksumSha256,
    width: state.width,
    height: state.height,
    variants: null,
  });
}
