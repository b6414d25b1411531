import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import request from 'supertest';
import { DataSource, type QueryRunner } from 'typeorm';
import { loadAppConfig } from '../src/config/environment.js';
import { buildDataSourceOptions } from '../src/database/data-source-options.js';
import { SecretBox } from '../src/secrets/index.js';
import { EncryptSigningKeys1763800006000 } from '../src/token/migrations/1763800006000-encrypt-signing-keys.js';
import { SigningKeysRepository } from '../src/token/repositories/signing-keys.repository.js';
import { EncryptWebhookSecrets1763800006100 } from '../src/webhooks/migrations/1763800006100-encrypt-webhook-secrets.js';
import { verifyWebhookSignature } from '../src/webhooks/sending/verify-webhook-signature.js';
import {
  ADMIN_PASSWORD,
  createTestDatabase,
  passwordToken,
  startApp,
  type TestApp,
  type TestDatabase,
} from './support/test-app.js';
import { startReceiver, type TestReceiver } from './support/webhook-receiver.js';

const WEBHOOKS = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '100ms,150ms,200ms',
  WEBHOOK_TIMEOUT: '1s',
  WEBHOOK_POLL_INTERVAL: '50ms',
};
// As createTestDatabase decides: PostgreSQL when TEST_DATABASE_URL is set and not empty.
const postgres = Boolean(process.env.TEST_DATABASE_URL);
const SEALED = /^enc:v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/;

type KeyRow = { kid: string; private_key: string };
type EndpointRow = { id: number; secret: string; previous_secret: string | null };

/**
 * Runs `work` in a transaction on a connection of its own to the instance's database, with the instance's environment
 * (the migrations take SECRETS_KEY or the key file from it, as at start), as another process would. On SQLite with
 * foreign keys off, as TypeORM runs migrations there: rebuilding a table must not cascade to the rows referencing it.
 */
async function inOwnTransaction(database: TestDatabase, work: (runner: QueryRunner) => Promise<void>): Promise<void> {
  const saved = { ...process.env };
  Object.assign(process.env, database.env);
  const dataSource = new DataSource(buildDataSourceOptions(loadAppConfig()));
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    if (!postgres) await runner.query('PRAGMA foreign_keys = OFF');
    await runner.startTransaction();
    try {
      await work(runner);
      await runner.commitTransaction();
    } catch (error) {
      await runner.rollbackTransaction();
      throw error;
    }
  } finally {
    await runner.release();
    await dataSource.destroy();
    process.env = saved;
  }
}

/** Tokens the instance issues verify against its published JWKS. */
async function verifiesAgainstJwks(t: TestApp, token: string): Promise<string | undefined> {
  const jwks = (await request(t.url).get('/.well-known/jwks.json').expect(200)).body as JSONWebKeySet;
  const { protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: t.url });
  return protectedHeader.kid;
}

/** Pings the endpoint and returns the signed delivery the receiver got. */
async function pinged(t: TestApp, receiver: TestReceiver, endpointId: number) {
  receiver.received.length = 0;
  await t.http.post(`/api/webhooks/${endpointId}/ping`).expect(202);
  const [hook] = await receiver.waitFor(1);
  return hook;
}

describe('Secrets at rest: signing keys and webhook secrets are stored sealed', () => {
  let database: TestDatabase;
  let t: TestApp;
  let receiver: TestReceiver;
  let endpointId: number;
  let secret: string;
  let previous: string;

  const endpointRow = async () =>
    (
      await t.dataSource.query<EndpointRow[]>(
        `SELECT id, secret, previous_secret FROM webhook_endpoints WHERE id = ${endpointId}`,
      )
    )[0];

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await startApp(database, WEBHOOKS);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t.close({ destroy: true });
    await receiver.close();
  });

  it('keeps the private signing keys sealed, and the tokens they sign verify', async () => {
    const rows = await t.dataSource.query<KeyRow[]>('SELECT kid, private_key FROM signing_keys');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.private_key).toMatch(SEALED);
      expect(row.private_key).not.toContain('PRIVATE KEY');
    }
    const { access_token } = await passwordToken(t.url, 'admin', ADMIN_PASSWORD);
    expect(rows.map((row) => row.kid)).toContain(await verifiesAgainstJwks(t, access_token));
  });

  it('keeps the webhook secrets sealed, current and previous, and signs deliveries with them', async () => {
    const created = await t.http
      .post('/api/webhooks')
      .send({ url: receiver.url, events: ['*'] })
      .expect(201);
    ({ id: endpointId, secret: previous } = created.body);
    expect(previous).toMatch(/^ffwh_/);
    const stored = await endpointRow();
    expect(stored.secret).toMatch(SEALED);
    expect(stored.secret).not.toContain(previous);
    expect(stored.previous_secret).toBeNull();

    secret = (await t.http.post(`/api/webhooks/${endpointId}/rotate-secret`).expect(200)).body.secret;
    expect(secret).not.toBe(previous);
    const rotated = await endpointRow();
    for (const value of [rotated.secret, rotated.previous_secret]) {
      expect(value).toMatch(SEALED);
      expect(value).not.toContain(secret);
      expect(value).not.toContain(previous);
    }

    const hook = await pinged(t, receiver, endpointId);
    expect(verifyWebhookSignature(hook.raw, hook.headers, [secret]).valid).toBe(true);
    expect(verifyWebhookSignature(hook.raw, hook.headers, [previous]).valid).toBe(true);
    expect(verifyWebhookSignature(hook.raw, hook.headers, ['whsec_another']).valid).toBe(false);
    // Reading and saving the endpoint again (an update) keeps the same secrets.
    await t.http.patch(`/api/webhooks/${endpointId}`).send({ description: 'updated' }).expect(200);
    const again = await pinged(t, receiver, endpointId);
    expect(verifyWebhookSignature(again.raw, again.headers, [secret]).valid).toBe(true);
  });

  it(
    postgres
      ? 'uses SECRETS_KEY on PostgreSQL and writes no key file'
      : 'generates DATA_DIR/secrets.key, readable by the service user only',
    async () => {
      const file = stat(join(database.dataDir, 'secrets.key'));
      if (postgres) await expect(file).rejects.toThrow(/ENOENT/);
      else expect((await file).mode & 0o777).toBe(0o600);
    },
  );

  it('keeps working after a restart on the same data: same signing key, same webhook secrets', async () => {
    const { access_token: before } = await passwordToken(t.url, 'admin', ADMIN_PASSWORD);
    const kid = await verifiesAgainstJwks(t, before);
    await t.close();
    t = await startApp(database, WEBHOOKS);
    const { access_token: after } = await passwordToken(t.url, 'admin', ADMIN_PASSWORD);
    expect(await verifiesAgainstJwks(t, after)).toBe(kid);
    const hook = await pinged(t, receiver, endpointId);
    expect(verifyWebhookSignature(hook.raw, hook.headers, [secret]).valid).toBe(true);
    expect(verifyWebhookSignature(hook.raw, hook.headers, [previous]).valid).toBe(true);
  });
});

describe('Secrets at rest: the migrations seal the rows stored in plain', () => {
  let database: TestDatabase;
  let t: TestApp;
  let receiver: TestReceiver;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await startApp(database, WEBHOOKS);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t.close({ destroy: true });
    await receiver.close();
  });

  it('seals plain signing keys and webhook secrets (idempotently), opens them on down, and the service reads them', async () => {
    const p = (n: number) => (postgres ? `$${n}` : '?');
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const kid = `legacy-${randomBytes(4).toString('hex')}`;
    const [secret, previous] = [`whsec_${randomBytes(32).toString('base64url')}`, 'whsec_previous'];
    const keys = new EncryptSigningKeys1763800006000();
    const webhooks = new EncryptWebhookSecrets1763800006100();

    // In one transaction, so the running service never reads a row in plain.
    let endpointId = 0;
    await inOwnTransaction(database, async (runner) => {
      await runner.query(
        `INSERT INTO signing_keys (kid, algorithm, private_key, public_key, retired_at) ` +
          `VALUES (${p(1)}, 'ES256', ${p(2)}, ${p(3)}, ${p(4)})`,
        [kid, pem, publicKey.export({ type: 'spki', format: 'pem' }).toString(), Date.now()],
      );
      await runner.query(
        `INSERT INTO webhook_endpoints (url, events, secret, previous_secret, previous_secret_expires_at) ` +
          `VALUES (${p(1)}, '["*"]', ${p(2)}, ${p(3)}, ${p(4)})`,
        [receiver.url, secret, previous, Date.now() + 3_600_000],
      );
      const [{ id }]: Array<{ id: number }> = await runner.query(
        `SELECT id FROM webhook_endpoints WHERE secret = ${p(1)}`,
        [secret],
      );
      endpointId = Number(id);
      const key = async () => {
        const rows: KeyRow[] = await runner.query(`SELECT private_key FROM signing_keys WHERE kid = ${p(1)}`, [kid]);
        return rows[0].private_key;
      };
      const endpoint = async () => {
        const sql = `SELECT secret, previous_secret FROM webhook_endpoints WHERE id = ${p(1)}`;
        const rows: EndpointRow[] = await runner.query(sql, [endpointId]);
        return rows[0];
      };

      await keys.up(runner);
      await webhooks.up(runner);
      const sealedKey = await key();
      const sealedEndpoint = await endpoint();
      expect(sealedKey).toMatch(SEALED);
      expect(sealedEndpoint.secret).toMatch(SEALED);
      expect(sealedEndpoint.previous_secret).toMatch(SEALED);
      const box = t.app.get(SecretBox);
      expect(box.open(sealedKey, `signing_keys.private_key:${kid}`)).toBe(pem);

      // Running again changes nothing: sealed values are left alone.
      await keys.up(runner);
      await webhooks.up(runner);
      expect(await key()).toBe(sealedKey);
      expect(await endpoint()).toEqual(sealedEndpoint);

      // down gives the plain values back, up seals them again.
      await webhooks.down(runner);
      await keys.down(runner);
      expect(await key()).toBe(pem);
      expect(await endpoint()).toEqual({ secret, previous_secret: previous });
      await keys.up(runner);
      await webhooks.up(runner);
      expect(await key()).toMatch(SEALED);
      expect((await endpoint()).secret).toMatch(SEALED);
    });

    const stored = await t.app.get(SigningKeysRepository).newestFirst('access-token');
    expect(stored.find((row) => row.kid === kid)?.privateKey).toBe(pem);
    await t.http.post(`/api/webhooks/${endpointId}/ping`).expect(202);
    const [hook] = await receiver.waitFor(1);
    expect(verifyWebhookSignature(hook.raw, hook.headers, [secret]).valid).toBe(true);
    expect(verifyWebhookSignature(hook.raw, hook.headers, [previous]).valid).toBe(true);
  });
});

describe('Secrets at rest: upgrading a database whose secrets are stored in plain', () => {
  let database: TestDatabase;
  let t: TestApp;
  let receiver: TestReceiver;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await startApp(database, WEBHOOKS);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await t.close({ destroy: true });
    await receiver.close();
  });

  it('seals them when the service starts, and keeps the deliveries', async () => {
    const { id: endpointId, secret: previous } = (
      await t.http
        .post('/api/webhooks')
        .send({ url: receiver.url, events: ['*'] })
        .expect(201)
    ).body;
    const secret = (await t.http.post(`/api/webhooks/${endpointId}/rotate-secret`).expect(200)).body.secret;
    await pinged(t, receiver, endpointId);
    const deliveries = async () => (await t.http.get(`/api/webhooks/${endpointId}/deliveries`).expect(200)).body.total;
    expect(await deliveries()).toBe(1);
    const { access_token } = await passwordToken(t.url, 'admin', ADMIN_PASSWORD);
    const kid = await verifiesAgainstJwks(t, access_token);

    // With the service stopped, back to the state before the two migrations: plain values, narrow columns, the
    // migrations not recorded.
    await t.close();
    await inOwnTransaction(database, async (runner) => {
      await new EncryptWebhookSecrets1763800006100().down(runner);
      await new EncryptSigningKeys1763800006000().down(runner);
      await runner.query(
        "DELETE FROM migrations WHERE name IN ('EncryptSigningKeys1763800006000', 'EncryptWebhookSecrets1763800006100')",
      );
      const keys: KeyRow[] = await runner.query('SELECT kid, private_key FROM signing_keys');
      expect(keys.every((row) => row.private_key.includes('PRIVATE KEY'))).toBe(true);
      const endpoints: EndpointRow[] = await runner.query('SELECT secret, previous_secret FROM webhook_endpoints');
      expect(endpoints).toEqual([{ secret, previous_secret: previous }]);
    });

    t = await startApp(database, WEBHOOKS);
    const keyRows = async () => t.dataSource.query<KeyRow[]>('SELECT kid, private_key FROM signing_keys');
    const endpointRows = async () =>
      t.dataSource.query<EndpointRow[]>('SELECT id, secret, previous_secret FROM webhook_endpoints');
    const recorded = await t.dataSource.query<Array<{ name: string }>>('SELECT name FROM migrations');
    expect(recorded.map((row) => row.name)).toEqual(
      expect.arrayContaining(['EncryptSigningKeys1763800006000', 'EncryptWebhookSecrets1763800006100']),
    );
    for (const row of await keyRows()) expect(row.private_key).toMatch(SEALED);
    const [stored] = await endpointRows();
    expect(stored.secret).toMatch(SEALED);
    expect(stored.previous_secret).toMatch(SEALED);
    expect(await deliveries()).toBe(1);
    const { access_token: after } = await passwordToken(t.url, 'admin', ADMIN_PASSWORD);
    expect(await verifiesAgainstJwks(t, after)).toBe(kid);
    const hook = await pinged(t, receiver, endpointId);
    expect(verifyWebhookSignature(hook.raw, hook.headers, [secret]).valid).toBe(true);
    expect(verifyWebhookSignature(hook.raw, hook.headers, [previous]).valid).toBe(true);
  });
});
