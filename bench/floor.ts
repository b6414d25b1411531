/**
 * The floor for reads made anew (bench/peers/read-floor.ts): started over the service's own database with its key
 * and public URL, and held to the service's answer byte for byte before anything is measured against it.
 */
import type { Target } from './load.js';
import { call, startPeer, type BenchDatabase, type RunningProcess } from './support.js';

/** Starts the read floor on the database `service` runs on, signing file URLs as `service` does. */
export async function startReadFloor(
  database: BenchDatabase,
  service: RunningProcess,
  logFile: string,
): Promise<RunningProcess> {
  const { env } = database;
  if (!env.SECRETS_KEY) throw new Error('the read floor needs the SECRETS_KEY the service was started with');
  // File URLs are absolute on the issuer: asked of the service rather than guessed from its address.
  const { issuer } = await call<{ issuer: string }>(
    `${service.url}/.well-known/oauth-authorization-server`,
    'GET',
    undefined,
  );
  return startPeer('read-floor', logFile, '/products?limit=1', {
    ...(env.DATABASE_URL
      ? { FLOOR_DATABASE_URL: env.DATABASE_URL, FLOOR_DATABASE_SCHEMA: env.DATABASE_SCHEMA ?? '' }
      : { FLOOR_SQLITE_PATH: `${env.DATA_DIR}/app.sqlite` }),
    FLOOR_SECRETS_KEY: env.SECRETS_KEY,
    FLOOR_PUBLIC_URL: issuer,
  });
}

async function body(target: Target): Promise<Buffer> {
  const res = await fetch(target.url, { headers: target.headers, signal: AbortSignal.timeout(30_000) });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new Error(`${target.name}: ${res.status} ${bytes.toString('utf8', 0, 500)}`);
  return bytes;
}

/**
 * Throws unless both targets answer the same bytes. File URLs change with their window (an hour by default): the
 * floor is asked before and after the service, so a window ending between two answers cannot fail the check, while
 * any other difference does.
 */
export async function checkSameAnswer([us, floor]: [Target, Target]): Promise<void> {
  const before = await body(floor);
  const ours = await body(us);
  const after = await body(floor);
  if (ours.equals(before) || ours.equals(after)) return;
  let at = 0;
  while (at < ours.length && ours[at] === after[at]) at++;
  const around = (bytes: Buffer) => bytes.toString('utf8', Math.max(0, at - 120), at + 120);
  throw new Error(
    `${floor.name} does not answer the bytes of ${us.name} (${after.length} against ${ours.length} bytes; first ` +
      `difference at byte ${at}):\n  us:    …${around(ours)}…\n  floor: …${around(after)}…`,
  );
}
