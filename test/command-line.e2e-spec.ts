import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { WebhookSigningKeys } from '../src/webhooks/index.js';
import { buildService, type ServiceBuild } from './support/service-process.js';
import { createTestDatabase, startApp, type TestDatabase } from './support/test-app.js';

const run = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

describe('Command lines: npm run cli and npm run sweep-orphans', () => {
  let build: ServiceBuild;
  let database: TestDatabase;

  /** Runs one of the build's entry points as `npm run …` does, on the suite's database. */
  const invoke = (file: string, args: string[]): Promise<Outcome> =>
    run(process.execPath, [join(build.dir, file), ...args], { env: { ...process.env, ...database.env } }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: Outcome) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
  const cli = (...args: string[]) => invoke('src/cli.js', args);
  const sweep = (...args: string[]) => invoke('src/sweep-orphans.js', args);

  /** One line on stderr naming the problem and where the usage is, exit code 2, and no stack trace. */
  const expectUsageError = (outcome: Outcome, problem: string, command: string) =>
    expect(outcome).toEqual({
      code: 2,
      stdout: '',
      stderr: `${problem} (\`${command} -- --help\` shows the usage)\n`,
    });

  beforeAll(async () => {
    build = await buildService('command-line');
    database = await createTestDatabase();
  }, 120_000);

  afterAll(async () => {
    await build?.remove();
    await database?.drop();
  });

  it.each([
    ['src/cli.js', 'npm run cli'],
    ['src/sweep-orphans.js', 'npm run sweep-orphans'],
  ])('%s --help prints the usage and exits 0', async (file, command) => {
    for (const flag of ['--help', '-h']) {
      const outcome = await invoke(file, [flag]);
      expect(outcome).toMatchObject({ code: 0, stderr: '' });
      expect(outcome.stdout).toMatch(new RegExp(`^Usage: ${command} -- `));
    }
  });

  // Each process takes a second or two to load the application's modules: they run side by side.
  it.each<[string, string, Array<[string[], string]>]>([
    [
      'src/cli.js',
      'npm run cli',
      [
        [['--bogus'], "Unknown option '--bogus'"],
        [[], 'No command given'],
        [['make-coffee'], "Unknown command 'make-coffee'"],
        [['create-role'], 'create-role needs --name and --permissions'],
        [['create-integration', '--label'], "Option '--label <value>' argument missing"],
        [['rotate-signing-key', '--role', 'admin'], 'rotate-signing-key does not take --role'],
        [['rotate-webhook-signing-key', '--label', 'x'], 'rotate-webhook-signing-key does not take --label'],
        // No default role: a forgotten --role must not make an administrator.
        [['create-integration', '--label', 'ERP'], 'create-integration needs --role'],
        [['create-user', '--username', 'editor', '--password', 'a long passphrase'], 'create-user needs --role'],
      ],
    ],
    [
      'src/sweep-orphans.js',
      'npm run sweep-orphans',
      [
        [['--bogus'], "Unknown option '--bogus'"],
        [['--grace-seconds'], "Option '--grace-seconds <value>' argument missing"],
        [['--grace-seconds', 'soon'], '--grace-seconds must be a whole number of seconds'],
        [['--dry-run', 'now'], "Unexpected argument 'now'"],
      ],
    ],
  ])('%s answers a wrong command line with one line and exit code 2', async (file, command, cases) => {
    const outcomes = await Promise.all(cases.map(([args]) => invoke(file, args)));
    outcomes.forEach((outcome, i) => expectUsageError(outcome, cases[i][1], command));
  });

  it('sweeps with a right command line', async () => {
    expect(JSON.parse((await sweep('--dry-run')).stdout)).toMatchObject({ dryRun: true, failed: 0 });
  });

  it('creates a role with the rules of POST /api/roles, which an integration can then be given', async () => {
    expect(await cli('create-role', '--name', 'Catalog', '--permissions', 'product:read')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'name: name must be lower-case letters, digits, - or _\n',
    });
    expect((await cli('create-role', '--name', 'viewer', '--permissions', 'product:look')).stderr).toBe(
      'permissions: each permission must be <resource>:<read|write> or *\n',
    );

    const created = await cli('create-role', '--name', 'catalog-reader', '--permissions', 'product:read,article:read');
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({
      id: expect.any(Number),
      name: 'catalog-reader',
      permissions: ['product:read', 'article:read'],
    });
    expect(await cli('create-role', '--name', 'catalog-reader', '--permissions', 'product:read')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('A role "catalog-reader" already exists.'),
    });

    const integration = await cli('create-integration', '--label', 'ERP sync', '--role', 'catalog-reader');
    expect(integration.code).toBe(0);
    expect(JSON.parse(integration.stdout)).toMatchObject({ label: 'ERP sync', role: 'catalog-reader' });
  });

  it('records every change in the audit trail as actor cli, never a secret', async () => {
    // Started first: it creates the administrator only while no user exists.
    const t = await startApp(database);
    try {
      const printed = async <T>(...args: string[]) => JSON.parse((await cli(...args)).stdout) as T;
      const password = 'a long passphrase for the trail';
      const role = await printed<{ id: number }>('create-role', '--name', 'audited', '--permissions', 'product:read');
      const user = await printed<{ id: number }>(
        ...['create-user', '--username', 'audited', '--password', password, '--role', 'audited'],
      );
      const integration = await printed<{ id: number; secret_access_key: string }>(
        ...['create-integration', '--label', 'Audited', '--role', 'audited'],
      );
      const rotated = await printed<{ kid: string }>('rotate-signing-key');
      const webhookKey = await printed<{ kid: string }>('rotate-webhook-signing-key');

      const trail = (await t.http.get('/api/audit-events?actor=cli&limit=100').expect(200)).body as {
        items: Array<{ action: string; target_type: string; target_id: string }>;
      };
      expect(trail.items.map((event) => [event.action, event.target_type, event.target_id])).toEqual(
        expect.arrayContaining([
          ['role.create', 'role', String(role.id)],
          ['user.create', 'user', String(user.id)],
          ['integration.create', 'integration', String(integration.id)],
          ['signing-key.rotate', 'signing-key', rotated.kid],
          ['webhook-signing-key.rotate', 'webhook-signing-key', webhookKey.kid],
        ]),
      );
      const text = JSON.stringify(trail);
      for (const secret of [password, integration.secret_access_key]) expect(text).not.toContain(secret);
    } finally {
      await t.close();
    }
  });

  it('rotate-webhook-signing-key adds a v1a key that the service publishes, to sign WEBHOOK_SIGNING_KEY_PREPUBLISH later', async () => {
    const t = await startApp(database);
    try {
      const before = Date.now();
      const outcome = await cli('rotate-webhook-signing-key');
      expect(outcome.code).toBe(0);
      const printed = JSON.parse(outcome.stdout) as { kid: string; activates_at: string };
      expect(printed).toEqual({ kid: expect.any(String), activates_at: expect.any(String) });
      // WEBHOOK_SIGNING_KEY_PREPUBLISH is 1h by default.
      const activatesAt = Date.parse(printed.activates_at);
      expect(activatesAt).toBeGreaterThanOrEqual(before + 3_600_000);
      expect(activatesAt).toBeLessThanOrEqual(Date.now() + 3_600_000);

      // Another process stored it: a running instance loads it at its next webhook-signing-keys-reload (every
      // minute), which runs here now.
      await t.app.get(WebhookSigningKeys).reload();
      const published = (await request(t.url).get('/.well-known/webhook-keys.json').expect(200)).body as {
        keys: Array<{ kid: string }>;
      };
      expect(published.keys.map((key) => key.kid)).toContain(printed.kid);
      const listed = (await t.http.get('/api/webhooks/signing-keys').expect(200)).body as Array<{ state: string }>;
      expect(listed[0]).toMatchObject({ kid: printed.kid, state: 'upcoming', activates_at: printed.activates_at });
      expect(listed.filter((key) => key.state === 'signing')).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
