import type { FeatureSchema } from '../database/schema-registry.js';
import { FileRecord } from './records/file-record.entity.js';
import { FilesAndCatalog1763800000000 } from './migrations/1763800000000-file-records.js';
import { FileImages1763800009500 } from './migrations/1763800009500-file-images.js';
import { FileRecordChangesCounted1763800011100 } from './migrations/1763800011100-file-record-changes-counted.js';
import { ResumableUploads1763800015000 } from './migrations/1763800015000-resumable-uploads.js';
import { ResumableUpload } from './transports/resumable/state/resumable-upload.entity.js';
import { DirectUploads1763800015500 } from './migrations/1763800015500-direct-uploads.js';
import { ResumableStorageState1763800015600 } from './migrations/1763800015600-resumable-storage-state.js';
import { DataChangesStriped1763800017100 } from './migrations/1763800017100-data-changes-striped.js';
import { OpenUploadLimits1763800017200 } from './migrations/1763800017200-open-upload-limits.js';
import { DirectUpload } from './transports/direct/direct-upload.entity.js';

/** The files module's tables: file records, whatever entity they belong to, resumable uploads under way and direct uploads in progress. */
export const filesSchema: FeatureSchema = {
  entities: [FileRecord, ResumableUpload, DirectUpload],
  migrations: [
    FilesAndCatalog1763800000000,
    FileImages1763800009500,
    FileRecordChangesCounted1763800011100,
    ResumableUploads1763800015000,
    DirectUploads1763800015500,
    ResumableStorageState1763800015600,
    DataChangesStriped1763800017100,
    OpenUploadLimits1763800017200,
  ],
};
