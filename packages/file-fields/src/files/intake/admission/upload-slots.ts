import { Inject, Injectable } from '@nestjs/common';
import { FILE_FIELDS_OPTIONS, type ResolvedFileFieldsOptions } from '../../fields/file-fields.options.js';
import { FilesError, FilesErrorCode } from '../../../errors/files.errors.js';

/**
 * Bounds the uploads one principal has in flight at once (UPLOADS_PER_PRINCIPAL), so that one client holding many
 * slow uploads open cannot take every file descriptor of the instance. The count is per instance.
 */
@Injectable()
export class UploadSlots {
  private readonly inFlight = new Map<string, number>();

  constructor(@Inject(FILE_FIELDS_OPTIONS) private readonly options: ResolvedFileFieldsOptions) {}

  /** Takes a slot for the subject, or throws 429; the function returned frees it, once however often it is called. */
  acquire(subject: string): () => void {
    const held = this.inFlight.get(subject) ?? 0;
    const limit = this.options.uploadsPerPrincipal;
    if (held >= limit) {
      throw new FilesError(
        FilesErrorCode.TooManyUploads,
        `At most ${limit} uploads of one client may be in flight at once; retry when one has finished.`,
      );
    }
    this.inFlight.set(subject, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(subject) ?? 1) - 1;
      if (left > 0) this.inFlight.set(subject, left);
      else this.inFlight.delete(subject);
    };
  }
}
