import { readdir, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { PNG } from './support/fixtures.js';
import { freePort } from './support/free-port.js';
import {
  buildService,
  startServiceProcess,
  type ServiceBuild,
  type ServiceProcess,
} from './support/service-process.js';
import { ADMIN_PASSWORD, createTestDatabase, passwordToken, type TestDatabase } from './support/test-app.js';
import { eventually } from './support/wait.js';

async function filesUnder(dir: string): Promise<Array<{ path: string; size: number }>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return Promise.all(files.map(async (path) => ({ path, size: (await stat(path)).size })));
}

describe('Crash safety: SIGKILL in the middle of a large upload', () => {
  let build: ServiceBuild;
  // The suite's own database (its PostgreSQL schema when TEST_DATABASE_URL is set), shared by the crashed instance,
  // the restarted one and the sweep, as in a real restart.
  let database: TestDatabase;
  let service: ServiceProcess | undefined;

  const start = async (port: number): Promise<string> => {
    service = await startServiceProcess(build, database, {}, port);
    return service.url;
  };

  beforeAll(async () => {
    build = await buildService('crash');
    database = await createTestDatabase();
  }, 120_000);

  afterAll(async () => {
    // A failed run can leave the service up; it must be gone before its schema is dropped under it.
    await service?.stop('SIGKILL');
    await build?.remove();
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

    await service!.stop('SIGKILL');
    upload.destroy();
    expect((await filesUnder(storage)).length).toBeGreaterThan(0);

    url = await start(port);
    const after = (await (await fetch(`${url}/products/${product.id}`, { headers: auth })).json()) as {
      gallery: unknown[];
    };
    expect(after.gallery).toEqual([]);
    await service!.stop();

    const sweep = await build.run('src/sweep-orphans.js', ['--grace-seconds', '0'], {
      ...database.env,
      LOG_LEVEL: 'silent',
    });
    expect(JSON.parse(sweep.stdout)).toMatchObject({ removed: 1, failed: 0 });
    expect(await filesUnder(storage)).toEqual([]);
  });
});

function json(body: unknown, headers: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}
