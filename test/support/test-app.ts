import type { INestApplication, Type } from '@nestjs/common';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { DataSource } from 'typeorm';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CommittedOpenApi } from '../../src/api-docs/committed-document.js';
import { generateApiDocument } from '../../src/api-document.js';
import { createApp } from '../../src/app.factory.js';
import { createDatabaseEnvironment, type DatabaseEnvironment } from './database-environment.js';
import { freePort } from './free-port.js';
import { observeServer, type OpenApiDocument } from './openapi-contract.js';

/** A running instance of the real application on 127.0.0.1, with its own database and storage. */
export interface TestApp {
  app: INestApplication;
  url: string;
  /** An HTTP client for the instance that sends the credentials every route needs by default. */
  http: TestAgent;
  dataDir: string;
  dataSource: DataSource;
  /** Stops the instance; keeps its database and files unless `destroy` is true. */
  close(options?: { destroy?: boolean }): Promise<void>;
}

export type TestDatabase = DatabaseEnvironment;

/**
 * A fresh database for one suite: SQLite in a temporary directory, or, when TEST_DATABASE_URL is set
 * (as .ci/run does), a PostgreSQL schema of its own so suites can run side by side, with a SECRETS_KEY of its own
 * (PostgreSQL requires one; on SQLite it stays unset, so the service generates DATA_DIR/secrets.key).
 */
export function createTestDatabase(): Promise<TestDatabase> {
  return createDatabaseEnvironment('e2e', process.env.TEST_DATABASE_URL || undefined);
}

export const ADMIN_PASSWORD = 'e2e-admin-password';

/**
 * Starts the application on a free loopback port with the given environment on top of the database's. Its `http`
 * agent carries an administrator's access token (password grant), as every route but a few public ones needs one.
 * `root`, when given, is built in place of the service's module (see createApp).
 */
export async function startApp(
  database: TestDatabase,
  env: Record<string, string> = {},
  root?: Type,
): Promise<TestApp> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const saved = { ...process.env };
  Object.assign(process.env, { ADMIN_PASSWORD, OAUTH_ISSUER: url }, database.env, env);
  let app: INestApplication;
  try {
    // Another root declares more than openapi.json: it serves its own document (read at the first request for it, as
    // openapi.json is, once written below), and its responses are checked against that.
    const documentPath = join(database.dataDir, 'openapi.json');
    app = await createApp(root, root && new CommittedOpenApi(documentPath));
    if (root) await app.init();
    const document = root && (JSON.parse(JSON.stringify(generateApiDocument(app))) as OpenApiDocument);
    if (document) await writeFile(documentPath, JSON.stringify(document));
    observeServer(app.getHttpServer(), document);
    await app.listen(port, '127.0.0.1');
  } finally {
    process.env = saved;
  }
  const admin = await passwordToken(url, 'admin', ADMIN_PASSWORD);
  return {
    app,
    url,
    http: request.agent(url).set('Authorization', `Bearer ${admin.access_token}`),
    dataDir: database.dataDir,
    dataSource: app.get(DataSource),
    close: async (options) => {
      await app.close();
      if (options?.destroy) await database.drop();
    },
  };
}

/** A fresh database and an application on it; `close({ destroy: true })` removes both. */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  return startApp(await createTestDatabase(), env);
}

export interface TokenBody {
  access_token: string;
  refresh_token?: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

/** Signs in with the password grant as the administration interface does. */
export async function passwordToken(url: string, username: string, password: string): Promise<TokenBody> {
  const res = await request(url)
    .post('/api/oauth/token')
    .send({ grant_type: 'password', client_id: 'administration', username, password });
  if (res.status !== 200) throw new Error(`Password grant failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as TokenBody;
}
