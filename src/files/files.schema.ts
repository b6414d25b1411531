import type { FeatureSchema } from '../database/schema-registry.js';
import { FileRecord } from './file-record.entity.js';
import { FilesAndCatalog1763800000000 } from './migrations/1763800000000-file-records.js';

/** The files module's table: file records, whatever entity they belong to. */
export const filesSchema: FeatureSchema = { entities: [FileRecord], migrations: [FilesAndCatalog1763800000000] };
