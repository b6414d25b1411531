import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { UnitOfWork } from '../../../database/unit-of-work.js';
import { FileFieldRegistry } from '../../fields/file-field.registry.js';
import type { FileFieldDefinition } from '../../fields/file-field.decorator.js';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../../fields/file-fields.options.js';
import type { FileRecord } from '../../records/file-record.entity.js';
import { FileRecordsRepository } from '../../records/file-records.repository.js';
import { FilesError, FilesErrorCode, isMissingObject, storageFault } from '../../../errors/files.errors.js';
import { FileStorage } from '../../../storage/file-storage.js';
import { FileVariantsRepository } from './file-variants.repository.js';
import { DEFAULT_MAX_PIXELS } from '../options/image-options.js';
import { isRasterImage } from '../probe/image-types.js';
import { withLocalCopy } from '../probe/local-copy.js';
import { produceVariant, VariantInputError, variantTarget, type VariantTarget } from './variant-pipeline.js';
import { VariantQueue } from './variant-queue.js';
import { isStored, type VariantState } from '../../records/variant-state.js';

/**
 * Originals whose variants are made at once, waiting at most, and waiting at most for one principal (see VariantQueue).
 * Two at once, each within the decode budget, keep the memory the variants take under twice that budget.
 */
const QUEUE_LIMITS = { concurrency: 2, maxJobs: 1000, perRequester: 100 };
/** The requester of the jobs a response starts, for a variant it finds missing: all responses share one share. */
const RESPONSES = '';

/** What the variants of a file depend on. */
export type VariantSource = Pick<
  FileRecord,
  'id' | 'storageKey' | 'attachmentType' | 'field' | 'mimeType' | 'variants'
>;

/**
 * Makes the image variants of file records and records them on the record: each original is copied once to a
 * temporary file and all its missing variants are made from it, a few originals at a time; whoever asks for a variant
 * being made waits for that same job. FileVariants lists and serves what this makes.
 */
@Injectable()
export class VariantProduction implements BeforeApplicationShutdown {
  private readonly logger = new Logger(VariantProduction.name);
  /** The jobs making originals' missing variants, by `id:storageKey`. */
  private readonly queue = new VariantQueue(QUEUE_LIMITS);
  private closed = false;

  constructor(
    private readonly registry: FileFieldRegistry,
    private readonly fileRecords: FileRecordsRepository,
    private readonly variantRecords: FileVariantsRepository,
    private readonly storage: FileStorage,
    private readonly unitOfWork: UnitOfWork,
    @Inject(FILE_FIELDS_OPTIONS) private readonly options: Pick<ResolvedFileFieldsOptions, 'imageDecodeBytes'>,
  ) {}

  /** The variants of a record's file: none for a field without variants or a file that is no raster image. */
  targetsOf(record: Pick<FileRecord, 'attachmentType' | 'field' | 'storageKey' | 'mimeType'>): VariantTarget[] {
    return declaredTargets(record, this.fieldOf(record));
  }

  /** The declaration of the record's field (its variants, its maxPixels). */
  fieldOf(record: Pick<FileRecord, 'attachmentType' | 'field'>): FileFieldDefinition | undefined {
    return this.registry.get(record.attachmentType)?.fields.get(record.field);
  }

  /**
   * Starts making the missing variants of these records in the background, for `requester` (the principal who
   * uploaded them; responses share one requester); failures are logged. Records beyond the requester's share of the
   * queue are left to the next response or request that finds their variants missing.
   */
  later(records: readonly VariantSource[], requester = RESPONSES): void {
    for (const record of records) {
      if (this.targetsOf(record).length === 0) continue;
      const job = this.run(record, requester, true);
      if (!job) return;
      job.catch((error: unknown) =>
        this.logger.warn({ err: error, fileId: record.id }, 'Could not make the image variants of a file'),
      );
    }
  }

  /**
   * Makes the record's missing variants now, or waits for the job under way. A variant that cannot be made of the
   * file is recorded as failed; a storage fault is thrown as such, a missing original as content unavailable.
   */
  async now(record: FileRecord): Promise<void> {
    await this.run(record, RESPONSES)?.catch((error: unknown) => this.fail(error, record));
  }

  /** Resolves once no variant is being made: those under way now, and any started meanwhile, are made or failed. */
  async settled(): Promise<void> {
    await this.queue.settled();
  }

  /** Lets the variants being made finish (the storage and the database are still open); starts no new ones. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    await this.settled();
  }

  /** The job making the record's missing variants: the one under way, or a new one (if `bounded`, within limits). */
  private run(record: VariantSource, requester: string, bounded = false): Promise<void> | undefined {
    const work = () => this.produceMissing(record.id, record.storageKey);
    return this.queue.run(`${record.id}:${record.storageKey}`, requester, work, bounded);
  }

  /** Makes the variants the record misses now, from one temporary copy of its original, recording each when made. */
  private async produceMissing(id: number, storageKey: string): Promise<void> {
    if (this.closed) return;
    const record = await this.fileRecords.findById(id);
    if (!record || record.storageKey !== storageKey) return;
    const field = this.fieldOf(record);
    const missing = declaredTargets(record, field).filter(
      (target) => record.variants?.[target.name]?.key !== target.key,
    );
    if (missing.length === 0) return;
    const limits = { maxPixels: field?.maxPixels ?? DEFAULT_MAX_PIXELS, maxDecodeBytes: this.options.imageDecodeBytes };
    await withLocalCopy(this.storage, storageKey, async (path) => {
      for (const target of missing) {
        const state = await produceVariant(this.storage, target, path, limits).catch((error: unknown) => {
          if (!(error instanceof VariantInputError)) throw error;
          this.logger.warn({ err: error, fileId: id, variant: target.name }, 'An image variant cannot be made');
          return { key: target.key, failed: true } as const;
        });
        await this.remember(id, storageKey, target.name, state);
      }
    });
  }

  /**
   * Records a variant on its record, unless the record was deleted or its file replaced meanwhile: then the variant's
   * bytes go. A variant it replaces (made for an earlier declaration) goes after commit.
   */
  private async remember(id: number, storageKey: string, name: string, state: VariantState): Promise<void> {
    const kept = await this.unitOfWork.run(async (tx) => {
      const record = await this.variantRecords.lockedRecord(id, tx);
      if (!record || record.storageKey !== storageKey) return false;
      const previous = record.variants?.[name];
      await this.variantRecords.setVariants(id, { ...record.variants, [name]: state }, tx);
      if (isStored(previous) && previous.key !== state.key) tx.afterCommit(() => this.storage.delete(previous.key));
      return true;
    });
    if (!kept && isStored(state)) await this.storage.delete(state.key);
  }

  /** A failure to make a variant someone waits for: storage faults as such, a missing original as data lost. */
  private fail(error: unknown, record: FileRecord): never {
    if (isMissingObject(error)) {
      this.logger.error(
        { err: error, fileId: record.id, key: record.storageKey },
        'The stored bytes of a file are missing',
      );
      throw new FilesError(
        FilesErrorCode.FileContentUnavailable,
        `The content of file ${record.id} cannot be read at the moment.`,
        { cause: error },
      );
    }
    throw storageFault(error) ?? error;
  }
}

/** The variants `field` declares for a record's file, if it is a raster image. */
function declaredTargets(
  record: Pick<FileRecord, 'storageKey' | 'mimeType'>,
  field: FileFieldDefinition | undefined,
): VariantTarget[] {
  if (!field?.variants || !isRasterImage(record.mimeType)) return [];
  return Object.entries(field.variants).map(([name, options]) => variantTarget(record, name, options));
}
