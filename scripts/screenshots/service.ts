import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createDatabaseEnvironment } from '../../test/support/database-environment.js';
import { freePort } from '../../test/support/free-port.js';
import { eventually } from '../../test/support/wait.js';
import { ROOT } from './paths.js';

export const ADMIN_PASSWORD = 'screenshots-admin-password';

/** The built service (`npm run build`) on a fresh SQLite database and disk storage in a temporary directory. */
export interface RunningService {
  url: string;
  stop(): Promise<void>;
}

export async function startService(env: Record<string, string>): Promise<RunningService> {
  const database = await createDatabaseEnvironment('screenshots');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const output: Buffer[] = [];
  // The service finds admin/dist from its working directory, as `npm start` does.
  const child = spawn(process.execPath, [join(ROOT, 'dist/src/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...database.env,
      ...env,
      PORT: String(port),
      OAUTH_ISSUER: url,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      STORAGE_DRIVER: 'local',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await database.drop();
  };
  const up = () =>
    fetch(`${url}/health`).then(
      (res) => res.ok || undefined,
      () => {
        if (child.exitCode === null) return undefined;
        throw new Error(`The service exited (${child.exitCode}): ${Buffer.concat(output).toString().slice(-2000)}`);
      },
    );
  try {
    await eventually('the service to answer /health', up, 60_000, 100);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
