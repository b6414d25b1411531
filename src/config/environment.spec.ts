import { loadAppConfig, validateEnvironment } from './environment.js';

describe('environment', () => {
  it('applies the documented defaults', () => {
    const config = loadAppConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.sqlitePath).toMatch(/data\/app\.sqlite$/);
    expect(config.http).toMatchObject({ maxConnectionsPerAddress: 100, bodyTimeoutMs: 30_000 });
  });

  it('listens on loopback unless HOST says otherwise, and refuses a HOST that is no address or name', () => {
    expect(loadAppConfig({}).host).toBe('127.0.0.1');
    for (const host of ['0.0.0.0', '::', 'localhost', 'files.internal.example']) {
      expect(loadAppConfig({ HOST: host }).host).toBe(host);
    }
    for (const host of ['http://0.0.0.0', '0.0.0.0:3000', 'two words']) {
      expect(() => validateEnvironment({ HOST: host })).toThrow(/HOST must be an IP address or a host name/);
    }
  });

  it('derives the SQLite file from DATA_DIR', () => {
    expect(loadAppConfig({ DATA_DIR: '/tmp/other' }).sqlitePath).toBe('/tmp/other/app.sqlite');
  });

  it('names every invalid variable in one message', () => {
    expect(() =>
      validateEnvironment({ PORT: 'eighty', HTTP_MAX_CONNECTIONS: '-5', DATABASE_URL: 'mysql://x' }),
    ).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*HTTP_MAX_CONNECTIONS|PORT[\s\S]*HTTP_MAX_CONNECTIONS[\s\S]*DATABASE_URL/);
  });

  it('takes LOG_FORMAT json or pretty, leaves it to stdout when unset, and refuses any other', () => {
    expect(loadAppConfig({}).logFormat).toBeUndefined();
    expect(loadAppConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadAppConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => validateEnvironment({ LOG_FORMAT: 'text' })).toThrow(/LOG_FORMAT must be json or pretty.*"text"/);
  });

  it('accepts a PostgreSQL URL', () => {
    expect(loadAppConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db' }).databaseUrl).toBe(
      'postgres://u@127.0.0.1:5432/db',
    );
  });
});
