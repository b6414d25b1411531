/**
 * Benchmark (not a test): streams a large upload through the built service and downloads it again, then prints the
 * service process's peak resident memory (VmHWM). Usage: npm run build && npm run bench:memory -- [sizeMiB]
 * Defaults to 1024 MiB. Local disk storage and SQLite in a temporary directory; traffic stays on 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { freePort } from '../test/support/free-port.js';

const sizeMiB = Number(process.argv[2] ?? 1024);
const ADMIN_PASSWORD = 'bench-admin-password';
const chunk = Buffer.alloc(1024 * 1024, 0x61);

async function peakRssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

function* body(boundary: string): Generator<Buffer> {
  yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`);
  for (let i = 0; i < sizeMiB; i++) yield chunk;
  yield Buffer.from(`\r\n--${boundary}--\r\n`);
}

function send(url: string, boundary: string, auth: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, ...auth } },
      (res) => {
        let text = '';
        res.on('data', (data: Buffer) => (text += data.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    Readable.from(body(boundary)).pipe(req);
  });
}

async function download(url: string, auth: Record<string, string>): Promise<{ bytes: number; sha256: string }> {
  const res = await fetch(url, { headers: auth });
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += part.length;
    hash.update(part);
  }
  return { bytes, sha256: hash.digest('hex') };
}

const dataDir = await mkdtemp(join(tmpdir(), 'bench-memory-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
// The same command line as `npm start`.
const service = spawn(process.execPath, ['--max-semi-space-size=1', 'dist/src/main.js'], {
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'silent',
    MAX_FILE_SIZE: String(4 * 1024 ** 3),
    ADMIN_PASSWORD,
  },
  stdio: 'inherit',
});
try {
  for (
    let i = 0;
    i < 100 &&
    !(await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const signIn = await fetch(`${url}/api/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      client_id: 'administration',
      username: 'admin',
      password: ADMIN_PASSWORD,
    }),
  });
  const signedIn = (await signIn.json()) as { access_token: string };
  const token = { Authorization: `Bearer ${signedIn.access_token}` };
  const article = (await (
    await fetch(`${url}/articles`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...token },
      body: '{"title":"bench"}',
    })
  ).json()) as { id: number };
  const baseline = await peakRssMiB(service.pid!);
  const started = Date.now();
  const uploaded = await send(`${url}/files/article/${article.id}/attachments`, 'benchboundary', token);
  const uploadSeconds = (Date.now() - started) / 1000;
  const record = JSON.parse(uploaded.body) as { id: number; size: number; checksum_sha256: string };
  const afterUpload = await peakRssMiB(service.pid!);
  const downloadStarted = Date.now();
  const downloaded = await download(`${url}/files/${record.id}/content`, token);
  const downloadSeconds = (Date.now() - downloadStarted) / 1000;
  const afterDownload = await peakRssMiB(service.pid!);
  console.log(`file size:              ${sizeMiB} MiB (upload status ${uploaded.status}, stored ${record.size} bytes)`);
  console.log(`upload:                 ${uploadSeconds.toFixed(1)} s (${(sizeMiB / uploadSeconds).toFixed(0)} MiB/s)`);
  console.log(
    `download:               ${downloadSeconds.toFixed(1)} s, ${downloaded.bytes} bytes, checksum ${downloaded.sha256 === record.checksum_sha256 ? 'matches' : 'DIFFERS'}`,
  );
  console.log(`peak RSS after start:   ${baseline.toFixed(0)} MiB`);
  console.log(`peak RSS after upload:  ${afterUpload.toFixed(0)} MiB`);
  console.log(`peak RSS after download: ${afterDownload.toFixed(0)} MiB`);
} finally {
  service.kill('SIGTERM');
  await rm(dataDir, { recursive: true, force: true });
}
