import { Injectable, Logger } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { Principal } from '../../auth/principal.js';
import { assertMayRead } from './file-access.js';
import { FileRecord } from '../records/file-record.entity.js';
import { FileRecordsRepository } from '../records/file-records.repository.js';
import { FilesError, FilesErrorCode, isMissingObject, storageFault } from '../../errors/files.errors.js';
import { FileStorage, type ByteRange } from '../../storage/file-storage.js';

/** Reads file records and their stored bytes. */
@Injectable()
export class FileContentService {
  private readonly logger = new Logger(FileContentService.name);

  constructor(
    private readonly fileRecords: FileRecordsRepository,
    private readonly storage: FileStorage,
  ) {}

  /** The record, when the principal may read files of its entity type; 404 alike when missing or not readable. */
  async readable(principal: Principal, id: number): Promise<FileRecord> {
    return assertMayRead(principal, await this.fileRecords.findById(id), id);
  }

  /**
   * The stored bytes of a record, or one inclusive range of them. Bytes missing under an existing record are data
   * lost on our side: 503 that monitoring sees and an error in the log, never a 404 that looks like a client mistake.
   */
  async open(record: FileRecord, range?: ByteRange): Promise<Readable> {
    try {
      return await this.storage.get(record.storageKey, range);
    } catch (error) {
      const context = { err: error, fileId: record.id, key: record.storageKey };
      if (isMissingObject(error)) {
        this.logger.error(context, 'The stored bytes of a file record are missing');
        throw new FilesError(
          FilesErrorCode.FileContentUnavailable,
          `The content of file ${record.id} cannot be read at the moment.`,
          { cause: error },
        );
      }
      const fault = storageFault(error);
      if (!fault) throw error;
      this.logger.error(context, 'File storage fault while reading a file');
      throw fault;
    }
  }
}
