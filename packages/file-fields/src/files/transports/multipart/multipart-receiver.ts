import { Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import { countOf } from '../../../common/plural.js';
import { FilesError, FilesErrorCode } from '../../../errors/files.errors.js';
import { FileStorage } from '../../../storage/file-storage.js';
import type { StoredPart } from '../../intake/inspection/upload-inspection.js';
import { StreamingStorageEngine, type PartOptions } from './streaming-storage-engine.js';
import { fileTooLarge } from '../../intake/admission/upload-refusals.js';

const FILE_PART = 'file';

export interface ReceiveOptions extends PartOptions {
  maxFiles: number;
  maxFileSize: number;
}

/**
 * Reads a multipart/form-data request with multer, streaming every `file` part to storage.
 * On any failure the parts already stored are removed before the error is thrown.
 */
@Injectable()
export class MultipartReceiver {
  private readonly logger = new Logger(MultipartReceiver.name);

  constructor(private readonly storage: FileStorage) {}

  async receive(req: Request, res: Response, options: ReceiveOptions): Promise<StoredPart[]> {
    if (!req.is('multipart/form-data')) {
      throw new FilesError(FilesErrorCode.NotMultipart, 'Send the file as multipart/form-data in a part named "file".');
    }
    const engine = new StreamingStorageEngine(this.storage, options);
    const middleware = multer({
      storage: engine,
      // Browsers and HTTP clients send file names as raw UTF-8; busboy would read them as latin1 and garble them.
      defParamCharset: 'utf8',
      limits: { fileSize: options.maxFileSize, files: options.maxFiles, fields: 20, parts: options.maxFiles + 20 },
    }).array(FILE_PART, options.maxFiles);
    await new Promise<void>((resolve, reject) =>
      middleware(req, res, (error?: unknown) =>
        error ? reject(this.failure(error, options, engine.lastName)) : resolve(),
      ),
    );
    const files = (req.files ?? []) as Array<Express.Multer.File & { stored: StoredPart }>;
    if (files.length === 0) {
      throw new FilesError(FilesErrorCode.FileMissing, 'The request has no file in a part named "file".');
    }
    return files.map((file) => file.stored);
  }

  /** The error to answer; a storage fault is ours, not the client's, so it is also logged for operators. */
  private failure(error: unknown, options: ReceiveOptions, lastName?: string): Error {
    const answer = toUploadError(error, options, lastName);
    if (answer instanceof FilesError && answer.status >= 500) {
      this.logger.error({ err: answer.cause, code: answer.code }, 'File storage fault while storing an upload');
    }
    return answer;
  }
}

/** Maps multer and busboy failures to client errors; anything else is rethrown as it is. */
function toUploadError(
  error: unknown,
  options: Pick<ReceiveOptions, 'maxFiles' | 'maxFileSize'>,
  lastName?: string,
): Error {
  if (error instanceof FilesError) return error;
  if (error instanceof MulterError) {
    switch (error.code) {
      case 'LIMIT_FILE_SIZE':
        // busboy stops the part at the limit: its whole size is never known, the part being read is the one.
        return fileTooLarge(options.maxFileSize, { name: lastName });
      case 'LIMIT_FILE_COUNT':
      case 'LIMIT_UNEXPECTED_FILE':
        return error.field && error.field !== FILE_PART
          ? new FilesError(
              FilesErrorCode.MalformedMultipart,
              `Unexpected file part "${error.field}"; use "${FILE_PART}".`,
            )
          : new FilesError(
              FilesErrorCode.TooManyFiles,
              `This field takes at most ${countOf(options.maxFiles, 'file')} per request.`,
            );
      default:
        return new FilesError(FilesErrorCode.MalformedMultipart, error.message);
    }
  }
  if (
    error instanceof Error &&
    /multipart|boundary|unexpected end of form|malformed part header|request (aborted|closed)/i.test(error.message)
  ) {
    return new FilesError(FilesErrorCode.MalformedMultipart, error.message);
  }
  return error instanceof Error ? error : new Error(String(error));
}
