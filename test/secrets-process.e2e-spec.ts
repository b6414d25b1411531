import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { basic } from './support/admin-api.js';
import { PDF } from './support/fixtures.js';
import {
  buildService,
  launchServiceProcess,
  startServiceProcess,
  type ServiceBuild,
  type ServiceProcess,
} from './support/service-process.js';
import { ADMIN_PASSWORD, createTestDatabase, startApp, type TestDatabase } from './support/test-app.js';
import { eventually } from './support/wait.js';

// As createTestDatabase decides: PostgreSQL when TEST_DATABASE_URL is set and not empty.
const postgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * The secrets key and the logs, checked on the built service in its own process: a start that fails exits it, and
 * its log (pino on stdout) is read exactly as an operator would get it.
 */
describe('Secrets: the service process', () => {
  let build: ServiceBuild;
  const databases: TestDatabase[] = [];
  const services: ServiceProcess[] = [];

  const database = async () => {
    const created = await createTestDatabase();
    databases.push(created);
    return created;
  };

  /** The process must stop by itself, unsuccessfully; returns what it wrote. */
  const refusedStart = async (env: Record<string, string | undefined>): Promise<string> => {
    const service = await launchServiceProcess(build, { LOG_LEVEL: 'info', ...env });
    services.push(service);
    let timer: NodeJS.Timeout | undefined;
    const running = new Promise((resolve) => (timer = setTimeout(() => resolve('running'), 20_000)));
    const code = await Promise.race([service.exited, running]).finally(() => clearTimeout(timer));
    expect(code).not.toBe('running');
    expect(code).not.toBe(0);
    return service.output();
  };

  beforeAll(async () => {
    build = await buildService('secrets');
  }, 120_000);

  afterAll(async () => {
    for (const service of services) await service.stop('SIGKILL');
    await build?.remove();
    for (const created of databases) await created.drop();
  });

  it(
    postgres
      ? 'refuses to start on PostgreSQL without SECRETS_KEY, naming the variable'
      : 'refuses to start on SQLite with a corrupt secrets.key, naming the file',
    async () => {
      const db = await database();
      if (postgres) {
        const output = await refusedStart({ ...db.env, SECRETS_KEY: undefined });
        expect(output).toContain('SECRETS_KEY is required with PostgreSQL');
        expect(output).toContain('openssl rand -base64 32');
      } else {
        await writeFile(join(db.dataDir, 'secrets.key'), 'not a key\n', { mode: 0o600 });
        const output = await refusedStart(db.env);
        expect(output).toContain(`The secrets key file ${join(db.dataDir, 'secrets.key')} (SECRETS_KEY unset)`);
      }
    },
    30_000,
  );

  it('refuses to start with a SECRETS_KEY of the wrong length, naming the variable', async () => {
    const output = await refusedStart({ ...(await database()).env, SECRETS_KEY: randomBytes(16).toString('base64') });
    expect(output).toContain('SECRETS_KEY must be 32 random bytes in base64');
  });

  it('refuses to start with another key than the one the stored secrets were sealed with', async () => {
    const db = await database();
    const first = await startApp(db);
    await first.close();
    const output = await refusedStart({ ...db.env, SECRETS_KEY: randomBytes(32).toString('base64') });
    expect(output).toContain('sealed with another SECRETS_KEY');
  });

  it('logs a line written while handling a request with that request', async () => {
    const db = await database();
    const service = await startServiceProcess(build, db, { LOG_LEVEL: 'info', WEBHOOK_DISPATCHER: 'off' });
    services.push(service);
    const { url } = service;

    // A line the service logs while it handles a request carries that request (AsyncLocalStorage): the error of a
    // file whose stored bytes are gone.
    const signedIn = await request(url)
      .post('/api/oauth/token')
      .send({ grant_type: 'password', client_id: 'administration', username: 'admin', password: ADMIN_PASSWORD })
      .expect(200);
    const auth = `Bearer ${signedIn.body.access_token as string}`;
    const product = (await request(url).post('/products').set('Authorization', auth).send({ name: 'p' }).expect(201))
      .body as { id: number };
    const file = (
      await request(url)
        .post(`/files/product/${product.id}/gallery`)
        .set('Authorization', auth)
        .attach('file', PDF, 'a.pdf')
        .expect(201)
    ).body as { id: number };
    await rm(join(db.dataDir, 'files'), { recursive: true, force: true });
    const id = `context-${randomBytes(4).toString('hex')}`;
    await request(url).get(`/files/${file.id}/content`).set('Authorization', auth).set('X-Request-Id', id).expect(503);
    const line = await eventually('the missing bytes to be logged', () =>
      service
        .output()
        .split('\n')
        .find((text) => text.includes('The stored bytes of a file record are missing')),
    );
    expect(JSON.parse(line)).toMatchObject({ req: { id }, fileId: file.id });
  });

  it('writes no secret of the token endpoint or the admin API to its log', async () => {
    const db = await database();
    const service = await startServiceProcess(build, db, {
      LOG_LEVEL: 'debug',
      OAUTH_ISSUER: 'http://service.test',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_DISPATCHER: 'off',
    });
    services.push(service);
    const { url } = service;
    const secrets: string[] = [ADMIN_PASSWORD];
    const keep = <T extends string | undefined>(value: T): T => {
      expect(typeof value).toBe('string');
      secrets.push(value as string);
      return value;
    };

    const tokenRequest = (body: Record<string, string>) =>
      request(url).post('/api/oauth/token').type('form').send(body);
    const signedIn = await tokenRequest({
      grant_type: 'password',
      client_id: 'administration',
      username: 'admin',
      password: ADMIN_PASSWORD,
    }).expect(200);
    const admin = keep(signedIn.body.access_token as string);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      client_id: 'administration',
      refresh_token: keep(signedIn.body.refresh_token as string),
    }).expect(200);
    keep(refreshed.body.access_token as string);
    keep(refreshed.body.refresh_token as string);
    await tokenRequest({
      grant_type: 'password',
      client_id: 'administration',
      username: 'admin',
      password: keep('wrong-password-123'),
    });

    const api = (method: 'post' | 'patch', path: string, body: object = {}) =>
      request(url)[method](path).set('Authorization', `Bearer ${admin}`).send(body);
    await api('post', '/api/roles', { name: 'logged', permissions: ['product:read'] }).expect(201);
    const integration = (await api('post', '/api/integrations', { label: 'log', role: 'logged' }).expect(201)).body;
    keep(integration.secret_access_key as string);
    const rotated = (await api('post', `/api/integrations/${integration.id}/rotate-secret`).expect(200)).body;
    const clientSecret = keep(rotated.secret_access_key as string);
    const issued = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: integration.access_key_id,
      client_secret: clientSecret,
    }).expect(200);
    keep(issued.body.access_token as string);
    const basicAuth = await request(url)
      .post('/api/oauth/token')
      .set('Authorization', basic(integration.access_key_id, clientSecret))
      .type('form')
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    keep(basicAuth.body.access_token as string);
    await api('post', '/api/users', {
      username: 'logged-user',
      password: keep('a-user-password-42'),
      role: 'logged',
    }).expect(201);
    const webhook = (await api('post', '/api/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['*'] }).expect(201))
      .body;
    keep(webhook.secret as string);
    keep((await api('post', `/api/webhooks/${webhook.id}/rotate-secret`).expect(200)).body.secret as string);
    // A credential in a query string is ignored, and never logged either.
    await request(url).get(`/products?access_token=${keep(`query-${randomBytes(8).toString('hex')}`)}`);

    await eventually('the last request to be logged', () =>
      service.output().includes('/products?') ? true : undefined,
    );
    const log = service.output();
    expect(log).toContain('/api/oauth/token');
    expect(log).toContain('/api/integrations');
    expect(log).toContain('/api/webhooks');
    expect(log).toContain(postgres ? '' : `Generated a secrets key at ${join(db.dataDir, 'secrets.key')}`);
    if (postgres) expect(log).not.toContain('Generated a secrets key');
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});
