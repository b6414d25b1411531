/**
 * The HTTP groups on one database: seeded once, measured on the service as `npm start` runs it, then (for the groups
 * made anew) on a second start over the same data with READ_CACHE_BYTES=0, against the read floor on that data.
 */
import { join } from 'node:path';
import { checkSameAnswer, startReadFloor } from './floor.js';
import { check, groupsFor, type Peers } from './groups.js';
import { runGroup, type Group } from './load.js';
import { seed, settle } from './seed.js';
import { ANEW_GROUPS, wanted } from './settings.js';
import {
  adminToken,
  call,
  createDatabase,
  residentMiB,
  startService,
  type BenchDatabase,
  type RunningProcess,
} from './support.js';

/** Runs the groups on `service` (every target checked first) and reads its kept-answer counts after them. */
async function measure(service: RunningProcess, groups: Group[]) {
  for (const group of groups) {
    for (const target of group.targets) await check(target, target.name.includes('token'));
    if (group.sameAnswer) await checkSameAnswer(group.sameAnswer);
  }
  const results = [];
  for (const group of groups) results.push({ group: group.name, ...(await runGroup(group)) });
  const health = await call<{ readCache?: ReadCacheCounts }>(`${service.url}/health`, 'GET', undefined);
  return { results, readCache: health.readCache };
}

interface ReadCacheCounts {
  hits: number;
  misses: number;
  flushes: number;
}

/**
 * Seeds a fresh database and measures the wanted groups on it: first on the service as `npm start` runs it, then, for
 * the groups made anew, on a second start over the same data with READ_CACHE_BYTES=0.
 */
export async function benchDatabase(kind: 'sqlite' | 'postgres', peers: Peers, logDir: string) {
  const database: BenchDatabase = await createDatabase(kind);
  let service: RunningProcess | undefined;
  let floor: RunningProcess | undefined;
  try {
    service = await startService(database, join(logDir, `service-${kind}.log`));
    // Right after its first answer (GET /health, which start-up waits for): what the service costs to hold.
    const memory: Record<string, { now: number; peak: number }> = { kept: await residentMiB(service.pid) };
    let token = await adminToken(service.url);
    process.stderr.write(`${kind}: seeding\n`);
    const seeded = await seed(service, token);
    const kept = await measure(service, groupsFor(service, peers, token, seeded, 'kept'));
    const readCache: Record<string, ReadCacheCounts | undefined> = { kept: kept.readCache };
    const results = kept.results;
    if (ANEW_GROUPS.some(wanted)) {
      await service.stop();
      process.stderr.write(`${kind}: the service again, with READ_CACHE_BYTES=0, and the read floor\n`);
      service = await startService(database, join(logDir, `service-${kind}-anew.log`), { READ_CACHE_BYTES: '0' });
      memory.anew = await residentMiB(service.pid);
      token = await adminToken(service.url);
      await settle(service, token);
      floor = await startReadFloor(database, service, join(logDir, `read-floor-${kind}.log`));
      const anew = await measure(service, groupsFor(service, peers, token, seeded, 'anew', floor));
      // A hit would mean some answers were kept after all, and the figures would not be those of reads made anew.
      if (anew.readCache && anew.readCache.hits > 0)
        throw new Error(`answers kept with READ_CACHE_BYTES=0: ${JSON.stringify(anew.readCache)}`);
      readCache.anew = anew.readCache;
      results.push(...anew.results);
    }
    return { results, readCache, memory };
  } finally {
    await floor?.stop();
    await service?.stop();
    await database.drop();
  }
}
