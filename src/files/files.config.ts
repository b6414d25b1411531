import { registerAs, type ConfigType } from '@nestjs/config';
import { IsIn, IsNotEmpty, IsOptional, IsString, IsUrl, ValidateIf } from 'class-validator';
import { resolve } from 'node:path';
import { IsIntVariable, validateConfig } from '../config/validate-config.js';
import type { FileFieldsOptions } from './file-fields.options.js';
import { createStorage } from './storage/create-storage.js';
import type { S3StorageOptions } from './storage/s3.storage.js';

/** The variables the files module reads, with their defaults (written here only). */
export class FilesEnvironment {
  @IsString()
  DATA_DIR = './data';

  @IsOptional()
  @IsString()
  STORAGE_DIR?: string;

  @IsIn(['local', 's3'])
  STORAGE_DRIVER: 'local' | 's3' = 'local';

  @ValidateIf((env: FilesEnvironment) => env.STORAGE_DRIVER === 's3')
  @IsString()
  @IsNotEmpty({ message: 'S3_BUCKET is required when STORAGE_DRIVER=s3' })
  S3_BUCKET?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  S3_ENDPOINT?: string;

  @IsString()
  S3_REGION = 'us-east-1';

  @IsOptional()
  @IsString()
  S3_ACCESS_KEY_ID?: string;

  @IsOptional()
  @IsString()
  S3_SECRET_ACCESS_KEY?: string;

  @IsIn(['true', 'false'])
  S3_FORCE_PATH_STYLE = 'false';

  @IsIntVariable(1)
  MAX_FILE_SIZE = 52_428_800;

  /** Uploads one principal may have in flight at once; the next one gets 429 before a byte of it is read. */
  @IsIntVariable(1)
  UPLOADS_PER_PRINCIPAL = 4;

  /** Stored objects without a record are removed once they are older than this (seconds). */
  @IsIntVariable(0)
  ORPHAN_GRACE_SECONDS = 3600;

  /** How often the orphan sweeper runs (seconds); 0 runs it only at start and by hand. */
  @IsIntVariable(0)
  ORPHAN_SWEEP_INTERVAL_SECONDS = 3600;
}

/** Where file bytes live: a directory on local disk, or an S3-compatible bucket. */
export type StorageSettings = { driver: 'local'; root: string } | ({ driver: 's3' } & S3StorageOptions);

/** The files module's settings, validated from the environment when the module loads. */
export const filesConfig = registerAs('files', () => {
  const env = validateConfig(FilesEnvironment, process.env);
  const storage: StorageSettings =
    env.STORAGE_DRIVER === 's3'
      ? {
          driver: 's3',
          bucket: env.S3_BUCKET ?? '',
          region: env.S3_REGION,
          endpoint: env.S3_ENDPOINT,
          accessKeyId: env.S3_ACCESS_KEY_ID,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY,
          forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
        }
      : { driver: 'local', root: resolve(env.STORAGE_DIR ?? resolve(env.DATA_DIR, 'files')) };
  return {
    storage,
    maxFileSize: env.MAX_FILE_SIZE,
    uploadsPerPrincipal: env.UPLOADS_PER_PRINCIPAL,
    orphanGraceMs: env.ORPHAN_GRACE_SECONDS * 1000,
    orphanSweepIntervalMs: env.ORPHAN_SWEEP_INTERVAL_SECONDS * 1000,
  };
});

export type FilesConfig = ConfigType<typeof filesConfig>;

/** The framework's options for this service: its settings, with the storage driver they name. */
export async function fileFieldsOptionsFrom(config: FilesConfig): Promise<FileFieldsOptions> {
  const { storage, ...limits } = config;
  return { storage: await createStorage(storage), ...limits };
}
