import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { hkdfSync, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAppConfig } from '../config/environment.js';
import { deriveSecretsKey, resolveSecretsKey, SECRETS_KEY_FILE } from './secrets-key.js';

describe('resolveSecretsKey', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'secrets-key-'));
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it('takes SECRETS_KEY when it is 32 bytes of base64, and writes no file', async () => {
    const key = randomBytes(32);
    const config = loadAppConfig({ DATA_DIR: dir, SECRETS_KEY: key.toString('base64') });
    expect(resolveSecretsKey(config).equals(key)).toBe(true);
    await expect(stat(join(dir, SECRETS_KEY_FILE))).rejects.toThrow(/ENOENT/);
  });

  it.each([
    ['too short', randomBytes(16).toString('base64')],
    ['too long', randomBytes(33).toString('base64')],
    ['not base64', 'not a key at all!'],
  ])('refuses a SECRETS_KEY %s, naming the variable', (_case, value) => {
    expect(() => resolveSecretsKey(loadAppConfig({ DATA_DIR: dir, SECRETS_KEY: value }))).toThrow(
      /^SECRETS_KEY must be 32 random bytes in base64 \(make one with `openssl rand -base64 32`\)/,
    );
  });

  it('on SQLite without SECRETS_KEY, generates DATA_DIR/secrets.key (0600), says so, and reuses it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const dataDir = join(dir, 'not-yet-there');
    const first = resolveSecretsKey(loadAppConfig({ DATA_DIR: dataDir }));
    const path = join(dataDir, SECRETS_KEY_FILE);
    expect(first).toHaveLength(32);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(Buffer.from(await readFile(path, 'utf8'), 'base64').equals(first)).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain(`Generated a secrets key at ${path}`);

    expect(resolveSecretsKey(loadAppConfig({ DATA_DIR: dataDir })).equals(first)).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('reads a key file another process wrote', async () => {
    const key = randomBytes(32);
    await writeFile(join(dir, SECRETS_KEY_FILE), `${key.toString('base64')}\n`, { mode: 0o600 });
    expect(resolveSecretsKey(loadAppConfig({ DATA_DIR: dir })).equals(key)).toBe(true);
  });

  it('refuses a key file with the wrong content, naming the file', async () => {
    await writeFile(join(dir, SECRETS_KEY_FILE), 'garbage', { mode: 0o600 });
    expect(() => resolveSecretsKey(loadAppConfig({ DATA_DIR: dir }))).toThrow(
      `The secrets key file ${join(dir, SECRETS_KEY_FILE)} (SECRETS_KEY unset) must be 32 random bytes in base64`,
    );
  });

  it('on PostgreSQL without SECRETS_KEY, refuses to start, naming the variable and how to make one', async () => {
    const config = loadAppConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://db/app' });
    expect(() => resolveSecretsKey(config)).toThrow(/^SECRETS_KEY is required with PostgreSQL/);
    expect(() => resolveSecretsKey(config)).toThrow(/openssl rand -base64 32/);
    await expect(stat(join(dir, SECRETS_KEY_FILE))).rejects.toThrow(/ENOENT/);
  });
});

describe('deriveSecretsKey', () => {
  it('derives 32 bytes per purpose with HKDF-SHA256: stable, distinct per purpose and per secrets key', () => {
    const key = randomBytes(32);
    const config = loadAppConfig({ SECRETS_KEY: key.toString('base64') });
    const urls = deriveSecretsKey('file-urls', config);
    expect(urls).toHaveLength(32);
    expect(urls.equals(Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'secrets-key:file-urls', 32)))).toBe(true);
    expect(deriveSecretsKey('file-urls', config).equals(urls)).toBe(true);
    expect(deriveSecretsKey('other', config).equals(urls)).toBe(false);
    expect(urls.equals(key)).toBe(false);
    const another = loadAppConfig({ SECRETS_KEY: randomBytes(32).toString('base64') });
    expect(deriveSecretsKey('file-urls', another).equals(urls)).toBe(false);
  });
});
