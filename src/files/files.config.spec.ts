import { filesConfig } from './files.config.js';

/** Runs the config factory on the given variables, as ConfigModule.forFeature does when the module loads. */
function load(env: Record<string, string>) {
  const saved = process.env;
  process.env = { ...env };
  try {
    return filesConfig();
  } finally {
    process.env = saved;
  }
}

describe('files config', () => {
  it('applies the documented defaults: local storage under DATA_DIR, 50 MiB, 4 uploads, hourly sweeps', () => {
    const config = load({ DATA_DIR: '/tmp/other' });
    expect(config.storage).toEqual({ driver: 'local', root: '/tmp/other/files' });
    expect(config).toMatchObject({
      maxFileSize: 52_428_800,
      uploadsPerPrincipal: 4,
      orphanGraceMs: 3_600_000,
      orphanSweepIntervalMs: 3_600_000,
      urlTtlMs: 3_600_000,
      urlMode: 'proxy',
      readCacheBytes: 33_554_432,
      imageDecodeBytes: 268_435_456,
    });
  });

  it('bounds unfinished uploads: 24 per principal, 20 × MAX_FILE_SIZE declared, a lifetime of 24h', () => {
    expect(load({})).toMatchObject({
      openUploadsPerPrincipal: 24,
      openUploadBytesPerPrincipal: 20 * 52_428_800,
      resumableUploadLifetimeMs: 86_400_000,
    });
    expect(load({ MAX_FILE_SIZE: '1000' }).openUploadBytesPerPrincipal).toBe(20_000);
    expect(load({ OPEN_UPLOADS_PER_PRINCIPAL: '3', OPEN_UPLOAD_BYTES_PER_PRINCIPAL: '52428800' })).toMatchObject({
      openUploadsPerPrincipal: 3,
      openUploadBytesPerPrincipal: 52_428_800,
    });
    expect(load({ RESUMABLE_UPLOAD_LIFETIME: '3d' }).resumableUploadLifetimeMs).toBe(3 * 86_400_000);
    expect(() => load({ OPEN_UPLOADS_PER_PRINCIPAL: '0' })).toThrow(/OPEN_UPLOADS_PER_PRINCIPAL/);
    expect(() => load({ OPEN_UPLOAD_BYTES_PER_PRINCIPAL: '1000' })).toThrow(/at least MAX_FILE_SIZE/);
    expect(() => load({ RESUMABLE_UPLOAD_LIFETIME: '30s' })).toThrow(/RESUMABLE_UPLOAD_LIFETIME must be at least 1m/);
  });

  it('reads the orphan sweep durations, and still their former *_SECONDS names', () => {
    expect(load({ ORPHAN_GRACE: '10m', ORPHAN_SWEEP_INTERVAL: '0' })).toMatchObject({
      orphanGraceMs: 600_000,
      orphanSweepIntervalMs: 0,
    });
    expect(load({ ORPHAN_GRACE_SECONDS: '60', ORPHAN_SWEEP_INTERVAL_SECONDS: '0' })).toMatchObject({
      orphanGraceMs: 60_000,
      orphanSweepIntervalMs: 0,
    });
    expect(() => load({ ORPHAN_GRACE: '10' })).toThrow(/ORPHAN_GRACE/);
  });

  it('reads IMAGE_DECODE_BYTES as a positive whole number of bytes', () => {
    expect(load({ IMAGE_DECODE_BYTES: '134217728' }).imageDecodeBytes).toBe(134_217_728);
    for (const bytes of ['0', '1.5', 'lots'])
      expect(() => load({ IMAGE_DECODE_BYTES: bytes })).toThrow(/IMAGE_DECODE_BYTES/);
  });

  it('reads READ_CACHE_BYTES as a whole number of bytes, 0 keeping no answer', () => {
    expect(load({ READ_CACHE_BYTES: '0' }).readCacheBytes).toBe(0);
    expect(load({ READ_CACHE_BYTES: '1048576' }).readCacheBytes).toBe(1_048_576);
    for (const bytes of ['-1', '1.5', 'lots'])
      expect(() => load({ READ_CACHE_BYTES: bytes })).toThrow(/READ_CACHE_BYTES/);
  });

  it('reads FILE_URL_TTL as a duration from 1m to 6d, and FILE_URL_MODE=direct only with S3', () => {
    expect(load({ FILE_URL_TTL: '15m' }).urlTtlMs).toBe(900_000);
    expect(load({ FILE_URL_TTL: '6d' }).urlTtlMs).toBe(518_400_000);
    for (const ttl of ['59s', '7d', 'soon', '-1h']) {
      expect(() => load({ FILE_URL_TTL: ttl })).toThrow(/FILE_URL_TTL: .*(from 1m to 6d|duration like)/);
    }
    expect(load({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', FILE_URL_MODE: 'direct' }).urlMode).toBe('direct');
    expect(() => load({ FILE_URL_MODE: 'direct' })).toThrow(/FILE_URL_MODE=direct needs STORAGE_DRIVER=s3/);
    expect(() => load({ FILE_URL_MODE: 'cdn' })).toThrow(/FILE_URL_MODE/);
  });

  it('reads S3 settings and refuses S3 without a bucket, naming the variable', () => {
    expect(load({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'true' }).storage).toMatchObject({
      driver: 's3',
      bucket: 'b',
      region: 'us-east-1',
      forcePathStyle: true,
    });
    expect(() => load({ STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET is required/);
    expect(() => load({ MAX_FILE_SIZE: '-1', UPLOADS_PER_PRINCIPAL: 'x' })).toThrow(
      /MAX_FILE_SIZE[\s\S]*UPLOADS_PER_PRINCIPAL/,
    );
  });
});
