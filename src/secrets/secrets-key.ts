import { Logger } from '@nestjs/common';
import { hkdfSync, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAppConfig, type AppConfig } from '../config/environment.js';
import { SecretBox } from './secret-box.js';

/** The file holding the generated key on the embedded default (SQLite), under DATA_DIR. */
export const SECRETS_KEY_FILE = 'secrets.key';

const HOW_TO = 'make one with `openssl rand -base64 32`';
const cache = new Map<string, Buffer>();

/** Decodes a base64 key that must be exactly 32 bytes; `source` names where it came from in the error. */
function decodeKey(text: string, source: string): Buffer {
  const trimmed = text.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) || key.length !== 32) {
    throw new Error(`${source} must be 32 random bytes in base64 (${HOW_TO}); it decodes to ${key.length} bytes`);
  }
  return key;
}

/** Reads DATA_DIR/secrets.key, or creates it (0600, all at once: another process sees the whole key or none). */
function keyFile(dataDir: string): Buffer {
  const path = join(dataDir, SECRETS_KEY_FILE);
  const source = `The secrets key file ${path} (SECRETS_KEY unset)`;
  try {
    return decodeKey(readFileSync(path, 'utf8'), source);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Written whole to a temporary file, then linked into place: link() fails if the key exists, so of two processes
  // starting at once one creates it and the other reads the complete key, never an empty file.
  const content = `${randomBytes(32).toString('base64')}\n`;
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, content, { flag: 'wx', mode: 0o600 });
  let created = false;
  try {
    linkSync(temporary, path);
    created = true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'EPERM' && code !== 'ENOTSUP') throw error;
    // A file system without hard links: create the key file itself, exclusively.
    if (code !== 'EEXIST') created = createExclusively(path, content);
  } finally {
    unlinkSync(temporary);
  }
  if (created) {
    new Logger('Secrets').warn(
      `Generated a secrets key at ${path}: back it up (without it the stored signing keys and webhook secrets ` +
        'cannot be read), or set SECRETS_KEY to its content',
    );
  }
  return decodeKey(readFileSync(path, 'utf8'), source);
}

/** Creates the file with this content unless it exists (then false). */
function createExclusively(path: string, content: string): boolean {
  try {
    writeFileSync(path, content, { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}

/**
 * The key that seals stored secrets: SECRETS_KEY (base64, 32 bytes); without it, on the embedded SQLite database, the
 * key in DATA_DIR/secrets.key, generated on first use; on PostgreSQL SECRETS_KEY is required. Resolved once per
 * source and process. A plain function: migrations, which have no dependency injection, use it too.
 */
export function resolveSecretsKey(config: AppConfig = loadAppConfig()): Buffer {
  if (config.secretsKey !== undefined && config.secretsKey !== '') {
    const id = `env:${config.secretsKey}`;
    const key = cache.get(id) ?? decodeKey(config.secretsKey, 'SECRETS_KEY');
    cache.set(id, key);
    return key;
  }
  if (config.databaseUrl) {
    throw new Error(
      'SECRETS_KEY is required with PostgreSQL (DATABASE_URL): it encrypts the signing keys and webhook secrets ' +
        `stored in the database; ${HOW_TO}, and keep it safe`,
    );
  }
  const id = `file:${join(config.dataDir, SECRETS_KEY_FILE)}`;
  const key = cache.get(id) ?? keyFile(config.dataDir);
  cache.set(id, key);
  return key;
}

/**
 * A key of its own for one purpose (e.g. `file-urls`), derived from the secrets key with HKDF-SHA256: nothing to store
 * or back up, the same on every instance, and none of these keys tells anything about another or the secrets key.
 */
export function deriveSecretsKey(purpose: string, config: AppConfig = loadAppConfig()): Buffer {
  return Buffer.from(hkdfSync('sha256', resolveSecretsKey(config), Buffer.alloc(0), `secrets-key:${purpose}`, 32));
}

/** A {@link SecretBox} on the key from the environment (`process.env` unless given). */
export function secretBoxFromEnvironment(config: AppConfig = loadAppConfig()): SecretBox {
  return new SecretBox(resolveSecretsKey(config));
}
