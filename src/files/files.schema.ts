import type { FeatureSchema } from '../database/schema-registry.js';
import { FileRecord } from './records/file-record.entity.js';
import { FilesAndCatalog1763800000000 } from './migrations/1763800000000-file-records.js';
import { FileImages1763800009500 } from './migrations/1763800009500-file-images.js';
import { FileRecordChangesCounted1763800011100 } from './migrations/1763800011100-file-record-changes-counted.js';

/** The files module's table: file records, whatever entity they belong to. */
export const filesSchema: FeatureSchema = {
  entities: [FileRecord],
  migrations: [FilesAndCatalog1763800000000, FileImages1763800009500, FileRecordChangesCounted1763800011100],
};
