import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readdir, rm, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PNG } from './support/fixtures.js';
import { ADMIN_PASSWORD, createTestDatabase, passwordToken, type TestDatabase } from './support/test-app.js';
import { freePort } from './support/free-port.js';
import { eventually } from './support/wait.js';

const run = promisify(execFile);
const root = process.cwd();

async function filesUnder(dir: string): Promise<Array<{ path: string; size: number }>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return Promise.all(files.map(async (path) => ({ path, size: (await stat(path)).size })));
}

describe('Crash safety: SIGKILL in the middle of a large upload', () => {
  let build: string;
  // The suite's own database (its PostgreSQL schema when TEST_DATABASE_URL is set), shared by the crashed instance,
  // the restarted one and the sweep, as in a real restart.
  let database: TestDatabase;
  let child: ChildProcess | undefined;

  const start = async (port: number): Promise<string> => {
    child = spawn(process.execPath, [join(build, 'src/main.js')], {
      env: {
        ...process.env,
        ...database.env,
        PORT: String(port),
        LOG_LEVEL: 'silent',
        ORPHAN_SWEEP_INTERVAL_SECONDS: '0',
        ADMIN_PASSWORD,
      },
      stdio: 'ignore',
    });
    const url = `http://127.0.0.1:${port}`;
    // Until the service listens, fetch fails: that is "not yet", not an error.
    const healthy = () =>
      fetch(`${url}/health`).then(
        (res) => (res.ok ? true : undefined),
        () => undefined,
      );
    await eventually('the service to start', healthy, 20_000);
    return url;
  };

  beforeAll(async () => {
    build = join(root, 'dist-test', `crash-${process.pid}`);
    await run(process.execPath, [
      join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.build.json',
      '--outDir',
      build,
    ]);
    database = await createTestDatabase();
  }, 120_000);

  afterAll(async () => {
    // A failed run can leave the service up; it must be gone before its schema is dropped under it.
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    await rm(build, { recursive: true, force: true });
    await database?.drop();
  });

  it('leaves no record after a restart, and no bytes after the sweep', async () => {
    const port = await freePort();
    let url = await start(port);
    const auth = { Authorization: `Bearer ${(await passwordToken(url, 'admin', ADMIN_PASSWORD)).access_token}` };
    const product = (await (await fetch(`${url}/products`, json({ name: 'crash' }, auth))).json()) as { id: number };

    // Stream a multipart upload that never finishes, until its bytes are visibly landing on disk.
    const boundary = 'crashboundary';
    const upload = httpRequest(`${url}/files/product/${product.id}/gallery`, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, ...auth },
    });
    upload.on('error', () => undefined);
    upload.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\n\r\n`);
    upload.write(PNG);
    const chunk = Buffer.alloc(1024 * 1024, 1);
    const storage = join(database.dataDir, 'files');
    await eventually(
      'partial bytes on disk',
      async () => {
        upload.write(chunk);
        const partial = (await filesUnder(storage)).find(
          (f) => f.path.endsWith('.partial') && f.size > 2 * chunk.length,
        );
        return partial;
      },
      20_000,
      100,
    );

    child!.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    upload.destroy();
    expect((await filesUnder(storage)).length).toBeGreaterThan(0);

    url = await start(port);
    const after = (await (await fetch(`${url}/products/${product.id}`, { headers: auth })).json()) as {
      gallery: unknown[];
    };
    expect(after.gallery).toEqual([]);
    child!.kill('SIGTERM');
    await new Promise((resolve) => child!.once('exit', resolve));

    const sweep = await run(process.execPath, [join(build, 'src/sweep-orphans.js'), '--grace-seconds', '0'], {
      env: { ...process.env, ...database.env, LOG_LEVEL: 'silent' },
    });
    expect(JSON.parse(sweep.stdout)).toMatchObject({ removed: 1, failed: 0 });
    expect(await filesUnder(storage)).toEqual([]);
  }, 90_000);
});

function json(body: unknown, headers: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}
