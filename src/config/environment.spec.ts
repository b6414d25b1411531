import { loadAppConfig, validateEnvironment } from './environment.js';

describe('environment', () => {
  it('applies the documented defaults', () => {
    const config = loadAppConfig({});
    expect(config.port).toBe(3000);
    expect(config.maxFileSize).toBe(52_428_800);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.sqlitePath).toMatch(/data\/app\.sqlite$/);
    expect(config.storageDir).toMatch(/data\/files$/);
  });

  it('derives the SQLite file and the storage directory from DATA_DIR', () => {
    const config = loadAppConfig({ DATA_DIR: '/tmp/other' });
    expect(config.sqlitePath).toBe('/tmp/other/app.sqlite');
    expect(config.storageDir).toBe('/tmp/other/files');
  });

  it('names every invalid variable in one message', () => {
    expect(() => validateEnvironment({ PORT: 'eighty', MAX_FILE_SIZE: '-5', DATABASE_URL: 'mysql://x' })).toThrow(
      /PORT[\s\S]*DATABASE_URL[\s\S]*MAX_FILE_SIZE|PORT[\s\S]*MAX_FILE_SIZE[\s\S]*DATABASE_URL/,
    );
  });

  it('accepts a PostgreSQL URL', () => {
    expect(loadAppConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db' }).databaseUrl).toBe(
      'postgres://u@127.0.0.1:5432/db',
    );
  });
});
