import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { signatureOf } from '../src/webhooks/sending/webhook-signer.js';
import { PNG } from './support/fixtures.js';
import { freePort } from './support/free-port.js';
import {
  buildService,
  startServiceProcess,
  type ServiceBuild,
  type ServiceProcess,
} from './support/service-process.js';
import { createTestDatabase, passwordToken, type TestDatabase } from './support/test-app.js';
import { eventually } from './support/wait.js';

const run = promisify(execFile);

/** Where the README's runnable examples begin: the block after this comment, and every later one. */
const MARKER = '<!-- test/readme-flow.e2e-spec.ts runs';
/** Commands that start something long-running, need a network (npx may fetch) or set up the shell: not run here. */
const NOT_RUN_HERE =
  /\bnpm (?:install|start|test)\b|\bnpm run (?:bench|dev:admin|example:receiver|test)\b|\bnpx\b|node-from-registry/;

function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
}

/** The variables the README's start command sets (`NAME='value' npm start`). */
function startVariables(block: string): Record<string, string> {
  const command = /^(?:npm install && )?((?:\w+=(?:'[^']*'|\S+) +)*)npm start$/m.exec(block);
  if (!command) throw new Error(`No start command in:\n${block}`);
  return Object.fromEntries([...command[1].matchAll(/(\w+)=(?:'([^']*)'|(\S+))/g)].map((m) => [m[1], m[2] ?? m[3]]));
}

/**
 * `npm` for the README's blocks: `npm run build` is this suite's build, and a script that runs a file of the build
 * (`"cli": "node scripts/on-supported-node.mjs 'node dist/src/cli.js'"`) runs the same file of this suite's build, so
 * package.json is followed too.
 */
function npmStandIn(scripts: Record<string, string>, buildDir: string): string {
  const cases = Object.entries(scripts).flatMap(([name, script]) => {
    // The launcher only picks the Node.js; this suite already runs on a supported one.
    const command = script.replace(/^node scripts\/on-supported-node\.mjs (?:--\S+ )*'([^']*)'$/, '$1');
    const file = /^node dist\/(\S+)$/.exec(command)?.[1];
    return file ? [`    ${name}) node '${join(buildDir, file)}' "$@" ;;`] : [];
  });
  return [
    'npm() {',
    '  [ "$1" = run ] || { echo "not run here: npm $*" >&2; return 1; }',
    '  local name=$2; shift 2',
    '  if [ "${1-}" = -- ]; then shift; fi',
    '  case "$name" in',
    '    build) ;;',
    ...cases,
    '    *) echo "not run here: npm run $name" >&2; return 1 ;;',
    '  esac',
    '}',
  ].join('\n');
}

describe('README: the examples run as written, in order, on a fresh start', () => {
  let readme: string;
  let build: ServiceBuild;
  let database: TestDatabase;
  let service: ServiceProcess | undefined;
  let workDir: string;

  beforeAll(async () => {
    readme = await readFile('README.md', 'utf8');
    build = await buildService('readme');
    database = await createTestDatabase();
    // The images the examples upload, in the directory they run in.
    workDir = await mkdtemp(join(tmpdir(), 'ffs-readme-'));
    for (const name of ['photo.png', 'a.png', 'b.png']) await writeFile(join(workDir, name), PNG);
  }, 120_000);

  afterAll(async () => {
    await service?.stop('SIGKILL');
    await build?.remove();
    await database?.drop();
    await rm(workDir, { recursive: true, force: true });
  });

  it('starts as the README says, logs where it listens, and answers every curl and npm run cli example', async () => {
    const marker = readme.indexOf(MARKER);
    expect(marker).toBeGreaterThan(0);
    const start = shellBlocks(readme.slice(0, marker)).find((block) => /\bnpm start$/m.test(block));
    const variables = startVariables(start ?? '');
    expect(variables.ADMIN_PASSWORD).toBeDefined();
    const port = await freePort();
    // HOST is left to its default, as in the README.
    service = await startServiceProcess(build, database, { ...variables, LOG_LEVEL: 'info' }, port);
    expect(service.output()).toContain(`Listening on http://127.0.0.1:${port}`);

    const blocks = shellBlocks(readme.slice(marker)).filter((block) => !NOT_RUN_HERE.test(block));
    const examples = blocks.join('\n');
    // What the flow is about: a parsing slip that dropped blocks would fail here rather than pass on less.
    for (const step of [
      '/api/roles',
      '/api/integrations',
      'client_credentials',
      '/files/product/1/cover',
      'Upload-Complete: ?1',
    ]) {
      expect(examples).toContain(step);
    }
    for (const step of ['create-role', 'create-integration', 'refresh_token', 'sweep-orphans -- --help']) {
      expect(examples).toContain(step);
    }
    const scripts = (JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    const script = [
      'set -euo pipefail',
      // Every request must succeed: an error status fails curl, and so the script.
      'curl() { command curl --fail-with-body --show-error "$@"; }',
      npmStandIn(scripts, build.dir),
      examples.replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`),
    ].join('\n');
    const result = await run('bash', ['-c', script], {
      cwd: workDir,
      env: { ...process.env, ...database.env },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
      throw new Error(`The README's examples failed (exit ${error.code}):\n${error.stdout}\n${error.stderr}`);
    });
    expect(result.stdout).toContain('Usage: npm run cli');
    expect(result.stdout).toContain('"scope":"product:read"');

    const admin = {
      Authorization: `Bearer ${(await passwordToken(service.url, 'admin', variables.ADMIN_PASSWORD)).access_token}`,
    };
    const get = async (path: string) => (await fetch(`${service!.url}${path}`, { headers: admin })).json();
    expect(await get('/products/1')).toMatchObject({
      name: 'Desk lamp',
      cover: { original_name: 'photo.png' },
      gallery: [{ original_name: 'a.png' }, { original_name: 'b.png' }],
    });
    const roles = ((await get('/api/roles')) as { items: Array<{ name: string }> }).items;
    expect(roles.map((role) => role.name)).toEqual(expect.arrayContaining(['catalog-editor', 'catalog-reader']));
    const integrations = ((await get('/api/integrations')) as { items: Array<{ label: string; role: string }> }).items;
    expect(integrations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: 'Shop front', role: 'catalog-editor' }),
        expect.objectContaining({ label: 'ERP sync', role: 'catalog-reader' }),
      ]),
    );
  }, 180_000);

  it('npm run example:receiver listens on 127.0.0.1 and accepts a signed event, once', async () => {
    expect(readme).toContain('WEBHOOK_SECRETS=ffwh_… npm run example:receiver');
    const port = await freePort();
    const receiverDir = await mkdtemp(join(tmpdir(), 'ffs-receiver-'));
    // Its own process group, so that stopping npm stops the receiver it started too.
    const child = spawn('npm', ['run', 'example:receiver'], {
      env: {
        ...process.env,
        PORT: String(port),
        WEBHOOK_SECRETS: 'ffwh_readme',
        PROCESSED_DB: join(receiverDir, 'processed.sqlite'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    const output = () => Buffer.concat(chunks).toString('utf8');
    const exited = new Promise((resolve) => child.once('close', resolve));
    try {
      const url = `http://127.0.0.1:${port}/hooks`;
      await eventually(
        'the receiver to listen',
        () => output().includes(`listening on ${url.slice(0, -6)}`) || undefined,
        90_000,
      );
      const timestamp = Math.floor(Date.now() / 1000);
      const body = JSON.stringify({ id: 'evt_readme', event: 'webhook.ping', timestamp, data: { endpoint_id: 1 } });
      const headers = (secret: string) => ({
        'Content-Type': 'application/json',
        'X-Webhook-Timestamp': String(timestamp),
        'X-Signature': signatureOf(body, secret),
      });
      const post = async (secret: string) =>
        (await fetch(url, { method: 'POST', headers: headers(secret), body })).status;
      expect(await post('ffwh_other')).toBe(400);
      expect(await post('ffwh_readme')).toBe(204);
      expect(await post('ffwh_readme')).toBe(204);
      expect(output().match(/processing webhook\.ping evt_readme/g)).toHaveLength(1);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
      await rm(receiverDir, { recursive: true, force: true });
    }
  }, 120_000);
});
