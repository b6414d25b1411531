import { registerAs, type ConfigType } from '@nestjs/config';
import { IsIn, IsNotEmpty, IsOptional, IsString, IsUrl, ValidateBy, ValidateIf } from 'class-validator';
import { resolve } from 'node:path';
import { durationMs, IsDuration, IsIntVariable, validateConfig } from '../config/validate-config.js';
import { parseDuration } from '../common/duration.js';
import type { FileFieldsOptions } from './fields/file-fields.options.js';
import { createStorage } from './storage/create-storage.js';
import type { S3StorageOptions } from './storage/s3.storage.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

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

  /** Bytes of JSON answers kept by `@CacheableRead()` handlers (see ReadCache); 0 keeps none. */
  @IsIntVariable(0)
  READ_CACHE_BYTES = 33_554_432;

  /** Memory (bytes) decoding one image for its variants may take, estimated from its header; a larger one gets 413. */
  @IsIntVariable(1)
  IMAGE_DECODE_BYTES = 268_435_456;

  /** Stored objects without a record are removed once they are older than this (seconds). */
  @IsIntVariable(0)
  ORPHAN_GRACE_SECONDS = 3600;

  /** How often the orphan sweeper runs (seconds); 0 runs it only at start and by hand. */
  @IsIntVariable(0)
  ORPHAN_SWEEP_INTERVAL_SECONDS = 3600;

  /** How long a resumable upload (tus) lives after the last request that brought bytes before it expires and is swept. */
  @IsDuration()
  RESUMABLE_UPLOAD_EXPIRY = '24h';

  /** How long a resumable upload lives at most from its creation, however often bytes arrive. */
  @IsDuration()
  @ValidateBy({
    name: 'resumableUploadLifetime',
    validator: {
      validate: (value: unknown) => {
        const ms = typeof value === 'string' ? parseDuration(value) : undefined;
        return ms === undefined || ms >= MINUTE_MS;
      },
      defaultMessage: () => 'RESUMABLE_UPLOAD_LIFETIME must be at least 1m',
    },
  })
  RESUMABLE_UPLOAD_LIFETIME = '24h';

  /** Unfinished uploads (resumable and direct) one principal may hold open at once; the next one gets 429. */
  @IsIntVariable(1)
  OPEN_UPLOADS_PER_PRINCIPAL = 24;

  /**
   * Bytes the unfinished uploads of one principal may declare together (a length not yet declared counts as the
   * field's maximum); default 20 × MAX_FILE_SIZE. At least MAX_FILE_SIZE, so that any one file fits.
   */
  @IsOptional()
  @IsIntVariable(1)
  @ValidateBy({
    name: 'openUploadBytes',
    validator: {
      validate: (value: unknown, args) => Number(value) >= Number((args?.object as FilesEnvironment).MAX_FILE_SIZE),
      defaultMessage: () => 'OPEN_UPLOAD_BYTES_PER_PRINCIPAL must be at least MAX_FILE_SIZE',
    },
  })
  OPEN_UPLOAD_BYTES_PER_PRINCIPAL?: number;

  /** How long a file record's `url` works at least (an S3 presigned URL lives at most 7 days, a window included). */
  @IsDuration()
  @ValidateBy({
    name: 'fileUrlTtl',
    validator: {
      validate: (value: unknown) => {
        const ms = typeof value === 'string' ? parseDuration(value) : undefined;
        return ms === undefined || (ms >= MINUTE_MS && ms <= 6 * DAY_MS);
      },
      defaultMessage: () => 'FILE_URL_TTL must be from 1m to 6d',
    },
  })
  FILE_URL_TTL = '1h';

  /** `proxy`: file URLs go through the service's signed route; `direct`: S3 presigned URLs. */
  @IsIn(['proxy', 'direct'])
  @ValidateBy({
    name: 'fileUrlMode',
    validator: {
      validate: (value: unknown, args) =>
        value !== 'direct' || (args?.object as FilesEnvironment).STORAGE_DRIVER === 's3',
      defaultMessage: () => 'FILE_URL_MODE=direct needs STORAGE_DRIVER=s3',
    },
  })
  FILE_URL_MODE: 'proxy' | 'direct' = 'proxy';

  /** How long a direct upload's part URLs work and the upload waits (S3 signs URLs for at most 7 days). */
  @IsDuration()
  @ValidateBy({
    name: 'directUploadTtl',
    validator: {
      validate: (value: unknown) => {
        const ms = typeof value === 'string' ? parseDuration(value) : undefined;
        return ms === undefined || (ms >= MINUTE_MS && ms <= 7 * DAY_MS);
      },
      defaultMessage: () => 'DIRECT_UPLOAD_TTL must be from 1m to 7d',
    },
  })
  DIRECT_UPLOAD_TTL = '1h';
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
    readCacheBytes: env.READ_CACHE_BYTES,
    imageDecodeBytes: env.IMAGE_DECODE_BYTES,
    orphanGraceMs: env.ORPHAN_GRACE_SECONDS * 1000,
    orphanSweepIntervalMs: env.ORPHAN_SWEEP_INTERVAL_SECONDS * 1000,
    urlTtlMs: durationMs(env.FILE_URL_TTL),
    resumableUploadExpiryMs: durationMs(env.RESUMABLE_UPLOAD_EXPIRY),
    resumableUploadLifetimeMs: durationMs(env.RESUMABLE_UPLOAD_LIFETIME),
    openUploadsPerPrincipal: env.OPEN_UPLOADS_PER_PRINCIPAL,
    openUploadBytesPerPrincipal: env.OPEN_UPLOAD_BYTES_PER_PRINCIPAL ?? 20 * env.MAX_FILE_SIZE,
    urlMode: env.FILE_URL_MODE,
    directUploadTtlMs: durationMs(env.DIRECT_UPLOAD_TTL),
  };
});

export type FilesConfig = ConfigType<typeof filesConfig>;

/** The framework's options for this service: its settings, with the storage driver they name. */
export async function fileFieldsOptionsFrom(config: FilesConfig): Promise<FileFieldsOptions> {
  const { storage, ...limits } = config;
  return { storage: await createStorage(storage), ...limits };
}
