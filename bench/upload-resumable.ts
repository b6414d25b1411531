/**
 * Benchmark (not a test): the same file sent once as one multipart upload and once as a tus upload in 8 PATCH
 * requests, each through a freshly started service (SQLite; local disk, or with `s3` an S3-protocol server on
 * 127.0.0.1), with the service's peak resident memory (VmHWM) after each. Usage:
 * npm run bench:resumable -- [sizeMiB] [local|s3] (default 2048 local); BENCH_ROUNDS alternated rounds (default 3).
 * The S3 server is s3rver, which keeps objects on disk (fauxqs keeps them in memory) and takes no aws-chunked bodies:
 * the service sends its checksums only where S3 requires them (AWS_REQUEST_CHECKSUM_CALCULATION=WHEN_REQUIRED).
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { startS3Server } from '../test/support/s3-server.js';
import { adminToken, call, createDatabase, killAll, peakRssMiB, startService } from './support.js';

const MiB = 1024 * 1024;
const REQUESTS = 8;
const sizeMiB = Number(process.argv[2] ?? 2048);
const storage = process.argv[3] === 's3' ? 's3' : 'local';
const chunk = randomBytes(MiB);
const BOUNDARY = '----WebKitFormBoundary7MA4YWxkTrZu0gW';

function* mebibytes(count: number, before?: Buffer, after?: Buffer): Generator<Buffer> {
  if (before) yield before;
  for (let i = 0; i < count; i++) yield chunk;
  if (after) yield after;
}

/** Sends one request with a streamed body; resolves with its status and headers once answered. */
function send(url: string, method: string, headers: Record<string, string>, body: Iterable<Buffer>) {
  return new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request(url, { method, headers, timeout: 600_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    Readable.from(body).pipe(req);
  });
}

interface Figures {
  seconds: number;
  baselineMiB: number;
  peakMiB: number;
}

async function measure(kind: 'multipart' | 'tus', logDir: string): Promise<Figures> {
  const database = await createDatabase('sqlite');
  const s3 = storage === 's3' ? await startS3Server('bench') : undefined;
  const s3Env = s3 ? { ...s3.env, AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED' } : {};
  const env = { MAX_FILE_SIZE: String(4 * 1024 * MiB), ...s3Env };
  const service = await startService(database, join(logDir, `${kind}.log`), env);
  try {
    const token = await adminToken(service.url);
    const auth = { Authorization: `Bearer ${token}` };
    const { id } = await call<{ id: number }>(`${service.url}/articles`, 'POST', token, { title: 'bench' });
    const baselineMiB = await peakRssMiB(service.pid);
    const path = `${service.url}/files/article/${id}/attachments`;
    const started = process.hrtime.bigint();
    if (kind === 'multipart') {
      const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`;
      const type = { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
      const body = mebibytes(sizeMiB, Buffer.from(head), Buffer.from(`\r\n--${BOUNDARY}--\r\n`));
      const res = await send(path, 'POST', { ...auth, ...type }, body);
      if (res.status !== 201) throw new Error(`multipart answered ${res.status}`);
    } else {
      const tus = { ...auth, 'Tus-Resumable': '1.0.0' };
      const created = await send(path, 'POST', { ...tus, 'Upload-Length': String(sizeMiB * MiB) }, []);
      const location = new URL(String(created.headers.location), service.url).href;
      const per = sizeMiB / REQUESTS;
      for (let n = 0; n < REQUESTS; n++) {
        const headers = {
          ...tus,
          'Content-Type': 'application/offset+octet-stream',
          'Content-Length': String(per * MiB),
          'Upload-Offset': String(n * per * MiB),
        };
        const res = await send(location, 'PATCH', headers, mebibytes(per));
        if (res.status !== 204) throw new Error(`PATCH ${n} answered ${res.status}`);
      }
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { seconds, baselineMiB, peakMiB: await peakRssMiB(service.pid) };
  } finally {
    await service.stop();
    await s3?.stop();
    await database.drop();
  }
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const logDir = await mkdtemp(join(tmpdir(), 'bench-resumable-'));
try {
  const runs: Record<'tus' | 'multipart', Figures[]> = { tus: [], multipart: [] };
  // Alternated rounds, each kind first in turn: neither gains from a warmer disk cache or a quieter moment.
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['tus', 'multipart'] as const) : (['multipart', 'tus'] as const);
    for (const kind of order) runs[kind].push(await measure(kind, logDir));
  }
  const summary = (r: Figures[]) => ({
    seconds: median(r.map((f) => f.seconds)),
    peakMiB: median(r.map((f) => f.peakMiB)),
    baselineMiB: median(r.map((f) => f.baselineMiB)),
  });
  const [tus, multipart] = [summary(runs.tus), summary(runs.multipart)];
  const line = (name: string, r: Figures) =>
    `${name}: ${r.seconds.toFixed(1)} s (${(sizeMiB / r.seconds).toFixed(0)} MiB/s), ` +
    `peak RSS ${r.peakMiB.toFixed(0)} MiB (${r.baselineMiB.toFixed(0)} after start)`;
  console.log(
    `file size: ${sizeMiB} MiB, storage: ${storage === 's3' ? 'S3 protocol (s3rver, on disk)' : 'local disk'}, ` +
      `Node.js ${process.versions.node}, medians of ${ROUNDS} alternated rounds`,
  );
  console.log(line('multipart, 1 request', multipart));
  console.log(line(`tus, ${REQUESTS} PATCH requests`, tus));
  console.log(`tus throughput / multipart: ${(multipart.seconds / tus.seconds).toFixed(2)}x`);
} finally {
  killAll();
  await rm(logDir, { recursive: true, force: true });
}
