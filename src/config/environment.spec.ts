import { loadAppConfig, validateEnvironment } from './environment.js';

describe('environment', () => {
  it('applies the documented defaults', () => {
    const config = loadAppConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.sqlitePath).toMatch(/data\/app\.sqlite$/);
  });

  it('derives the SQLite file from DATA_DIR', () => {
    expect(loadAppConfig({ DATA_DIR: '/tmp/other' }).sqlitePath).toBe('/tmp/other/app.sqlite');
  });

  it('names every invalid variable in one message', () => {
    expect(() =>
      validateEnvironment({ PORT: 'eighty', HTTP_MAX_CONNECTIONS: '-5', DATABASE_URL: 'mysql://x' }),
    ).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*HTTP_MAX_CONNECTIONS|PORT[\s\S]*HTTP_MAX_CONNECTIONS[\s\S]*DATABASE_URL/);
  });

  it('accepts a PostgreSQL URL', () => {
    expect(loadAppConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db' }).databaseUrl).toBe(
      'postgres://u@127.0.0.1:5432/db',
    );
  });
});
