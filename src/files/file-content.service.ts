import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { FileRecord } from './file-record.entity.js';
import { FileRecordsRepository } from './file-records.repository.js';
import { FilesError, FilesErrorCode } from './files.errors.js';
import { FileStorage, type ByteRange } from './storage/file-storage.js';

/** Reads file records and their stored bytes. */
@Injectable()
export class FileContentService {
  constructor(
    private readonly records: FileRecordsRepository,
    private readonly storage: FileStorage,
  ) {}

  async record(id: number): Promise<FileRecord> {
    const record = await this.records.findById(id);
    if (!record) throw new FilesError(FilesErrorCode.FileNotFound, `File ${id} does not exist.`);
    return record;
  }

  /** The stored bytes of a record, or one inclusive range of them. */
  open(record: FileRecord, range?: ByteRange): Promise<Readable> {
    return this.storage.get(record.path, range);
  }
}
