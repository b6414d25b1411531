import type { ConfigType } from '@nestjs/config';
import { IsIn, IsNotEmpty, IsOptional, IsString, IsUrl, ValidateBy, ValidateIf } from 'class-validator';
import { resolve } from 'node:path';
import { featureConfig } from '../config/feature-config.js';
import { Setting } from '../config/setting.js';
import { durationMs, IsDuration, IsIntVariable } from '../config/validate-config.js';
import { parseDuration } from '../common/duration.js';
import type { FileFieldsOptions } from '@file-fields/nest';
import { createStorage, type S3StorageOptions } from '@file-fields/nest';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The variables the files module reads, with their defaults (written here only); DATA_DIR comes from AppConfig. */
export class FilesEnvironment {
  @Setting({ doc: 'Root directory of stored files', shownDefault: '`$DATA_DIR/files`' })
  @IsOptional()
  @IsString()
  STORAGE_DIR?: string;

  @Setting({ doc: '`local` (disk under `STORAGE_DIR`) or `s3`' })
  @IsIn(['local', 's3'])
  STORAGE_DRIVER: 'local' | 's3' = 'local';

  @Setting({ doc: 'Bucket name; required with `STORAGE_DRIVER=s3`' })
  @ValidateIf((env: FilesEnvironment) => env.STORAGE_DRIVER === 's3')
  @IsString()
  @IsNotEmpty({ message: 'S3_BUCKET is required when STORAGE_DRIVER=s3' })
  S3_BUCKET?: string;

  @Setting({ doc: '`https://...` of a non-AWS service (MinIO, R2, Ceph RGW); unset for AWS S3' })
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  S3_ENDPOINT?: string;

  @Setting({ doc: 'Region (R2: `auto`)' })
  @IsString()
  S3_REGION = 'us-east-1';

  @Setting({
    doc: "Credentials with `S3_SECRET_ACCESS_KEY`; unset uses the AWS SDK's default chain (environment, role)",
  })
  @IsOptional()
  @IsString()
  S3_ACCESS_KEY_ID?: string;

  @Setting({ doc: 'The secret of `S3_ACCESS_KEY_ID`' })
  @IsOptional()
  @IsString()
  S3_SECRET_ACCESS_KEY?: string;

  @Setting({ doc: '`true` for MinIO and most self-hosted servers' })
  @IsIn(['true', 'false'])
  S3_FORCE_PATH_STYLE = 'false';

  @Setting({
    doc: "Largest accepted file, in bytes (a field's `maxSize` can only lower it)",
    shownDefault: '`52428800` (50 MiB)',
  })
  @IsIntVariable(1)
  MAX_FILE_SIZE = 52_428_800;

  /** Uploads one principal may have in flight at once; the next one gets 429 before a byte of it is read. */
  @Setting({
    doc: 'Uploads one caller may have in flight on one instance; the next gets 429 before any byte is read',
    rarelyNeeded: true,
  })
  @IsIntVariable(1)
  UPLOADS_PER_PRINCIPAL = 4;

  /** Bytes of JSON answers kept by `@CacheableRead()` handlers (see ReadCache); 0 keeps none. */
  @Setting({
    doc: 'Bytes of answers kept per instance while the data stays the same (see [kept answers][kept]); `0`: none',
    shownDefault: '`33554432` (32 MiB)',
    rarelyNeeded: true,
  })
  @IsIntVariable(0)
  READ_CACHE_BYTES = 33_554_432;

  /** Memory (bytes) decoding one image for its variants may take, estimated from its header; a larger one gets 413. */
  @Setting({
    doc: 'Memory decoding one image for its variants may take, estimated from its header; a larger image gets 413',
    shownDefault: '`268435456` (256 MiB)',
    rarelyNeeded: true,
  })
  @IsIntVariable(1)
  IMAGE_DECODE_BYTES = 268_435_456;

  @Setting({
    doc: 'Stored objects without a record are swept once older than this',
    formerly: 'ORPHAN_GRACE_SECONDS',
    rarelyNeeded: true,
  })
  @IsDuration()
  ORPHAN_GRACE = '1h';

  @Setting({
    doc: 'How often the orphan sweeper runs (it also runs at start); `0`: only at start and by hand',
    formerly: 'ORPHAN_SWEEP_INTERVAL_SECONDS',
    rarelyNeeded: true,
  })
  @IsDuration()
  ORPHAN_SWEEP_INTERVAL = '1h';

  /** How long a resumable upload (tus) lives after the last request that brought bytes before it expires and is swept. */
  @Setting({ doc: 'A [resumable upload][resumable] to which no byte arrived for this long expires (410) and is swept' })
  @IsDuration()
  RESUMABLE_UPLOAD_EXPIRY = '24h';

  @Setting({
    doc: 'A resumable upload expires this long after its creation at the latest, whatever arrives (at least `1m`)',
  })
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

  @Setting({
    doc: 'Unfinished uploads (resumable and direct) one caller may hold at once; the next gets 429 (`Retry-After`)',
    rarelyNeeded: true,
  })
  @IsIntVariable(1)
  OPEN_UPLOADS_PER_PRINCIPAL = 24;

  /**
   * Bytes the unfinished uploads of one principal may declare together (a length not yet declared counts as the
   * field's maximum); default 20 × MAX_FILE_SIZE. At least MAX_FILE_SIZE, so that any one file fits.
   */
  @Setting({
    doc: "Bytes a caller's unfinished uploads may declare together (unknown length: field maximum); ≥ MAX_FILE_SIZE",
    shownDefault: '20 × `MAX_FILE_SIZE`',
    rarelyNeeded: true,
  })
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
  @Setting({
    doc: "How long a file record's `url` works at least (`1m` to `6d`); the same URL is issued for up to an hour",
  })
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

  @Setting({
    doc: "`proxy`: `url` is the service's signed route; `direct` (with `STORAGE_DRIVER=s3`): an S3 presigned URL",
  })
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
  @Setting({
    doc: 'Part URLs of a [direct upload][direct] work this long (`1m` to `7d`); an unfinished one is then swept',
  })
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
type StorageSettings = { driver: 'local'; root: string } | ({ driver: 's3' } & S3StorageOptions);

/** The files module's settings, validated from the environment when the module loads. */
export const filesConfig = featureConfig('files', FilesEnvironment, (env, app) => {
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
      : { driver: 'local', root: resolve(env.STORAGE_DIR ?? resolve(app.dataDir, 'files')) };
  return {
    storage,
    maxFileSize: env.MAX_FILE_SIZE,
    uploadsPerPrincipal: env.UPLOADS_PER_PRINCIPAL,
    readCacheBytes: env.READ_CACHE_BYTES,
    imageDecodeBytes: env.IMAGE_DECODE_BYTES,
    orphanGraceMs: durationMs(env.ORPHAN_GRACE),
    orphanSweepIntervalMs: durationMs(env.ORPHAN_SWEEP_INTERVAL),
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
