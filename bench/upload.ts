/**
 * The large-upload figure: a multipart upload streamed through a freshly started service (so its peak resident memory,
 * VmHWM, is the upload's), and the same body through a raw node:http → file pipe (bench/peers/raw-upload.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  adminToken,
  call,
  createDatabase,
  peakRssMiB,
  startPeer,
  startService,
  type BenchDatabase,
  type RunningProcess,
} from './support.js';

/**
 * One MiB of random bytes, sent again and again: file content as it usually is. (A run of one repeated byte that also
 * occurs in the boundary makes the multipart parser's Boyer-Moore-Horspool search step a few bytes at a time instead
 * of the boundary's length, which measures the payload more than the service.)
 */
const chunk = randomBytes(1024 * 1024);
/**
 * A boundary as browsers make it (Chrome's form, 38 characters; curl's, undici's and Firefox's are 32 to 55). The
 * parser's search steps at most the boundary's length at a time, so a short one costs more per byte: with the
 * 13-character boundary this benchmark used before, the service wrote 359-372 MiB/s where it writes 433-469 with this
 * one (single uploads, alternated).
 */
const BOUNDARY = '----WebKitFormBoundary7MA4YWxkTrZu0gW';

export interface UploadFigures {
  sizeMiB: number;
  status: number;
  seconds: number;
  mibPerSecond: number;
  /** Peak RSS after start-up, before the upload. */
  baselineRssMiB: number;
  /** Peak RSS after the upload. */
  peakRssMiB: number;
  /** Bytes the server says it stored. */
  storedBytes: number;
}

export interface ServiceUploadFigures extends UploadFigures {
  /** Only when asked for: the download of the stored file. */
  download?: { seconds: number; bytes: number; checksumMatches: boolean; peakRssMiB: number };
}

function* multipartBody(sizeMiB: number): Generator<Buffer> {
  yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`);
  for (let i = 0; i < sizeMiB; i++) yield chunk;
  yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
}

/** POSTs a `sizeMiB` multipart body to `url`; the time runs from the first byte sent to the end of the answer. */
function send(
  url: string,
  sizeMiB: number,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
        timeout: 600_000,
      },
      (res) => {
        let text = '';
        res.on('data', (data: Buffer) => (text += data.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            seconds: Number(process.hrtime.bigint() - started) / 1e9,
          }),
        );
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('upload timed out')));
    Readable.from(multipartBody(sizeMiB)).pipe(req);
  });
}

async function download(url: string, token: string): Promise<{ bytes: number; sha256: string }> {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(600_000) });
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += part.length;
    hash.update(part);
  }
  return { bytes, sha256: hash.digest('hex') };
}

async function figures(
  target: RunningProcess,
  path: string,
  sizeMiB: number,
  headers: Record<string, string>,
): Promise<UploadFigures & { body: string }> {
  const baselineRssMiB = await peakRssMiB(target.pid);
  const sent = await send(`${target.url}${path}`, sizeMiB, headers);
  const stored = JSON.parse(sent.body || '{}') as { size?: number };
  return {
    sizeMiB,
    status: sent.status,
    seconds: sent.seconds,
    mibPerSecond: sizeMiB / sent.seconds,
    baselineRssMiB,
    peakRssMiB: await peakRssMiB(target.pid),
    storedBytes: stored.size ?? 0,
    body: sent.body,
  };
}

/**
 * Starts the service on a fresh SQLite database (logs on, into `logDir`), uploads `sizeMiB` to an article's
 * `attachments` field and, with `withDownload`, downloads it again; the service is stopped and its data removed.
 */
export async function measureServiceUpload(
  sizeMiB: number,
  logDir: string,
  withDownload = false,
): Promise<ServiceUploadFigures> {
  const database: BenchDatabase = await createDatabase('sqlite');
  const service = await startService(database, join(logDir, 'upload-service.log'), {
    MAX_FILE_SIZE: String(Math.max(4 * 1024 ** 3, 2 * sizeMiB * 1024 ** 2)),
  }).catch(async (error: unknown) => {
    await database.drop();
    throw error;
  });
  try {
    const token = await adminToken(service.url);
    const article = await call<{ id: number }>(`${service.url}/articles`, 'POST', token, { title: 'bench' });
    const result = await figures(service, `/files/article/${article.id}/attachments`, sizeMiB, {
      Authorization: `Bearer ${token}`,
    });
    if (result.status !== 201) throw new Error(`upload answered ${result.status}: ${result.body.slice(0, 500)}`);
    const { body, ...upload } = result;
    if (!withDownload) return upload;
    const record = JSON.parse(body) as { id: number; checksum_sha256: string };
    const started = process.hrtime.bigint();
    const downloaded = await download(`${service.url}/files/${record.id}/content`, token);
    return {
      ...upload,
      download: {
        seconds: Number(process.hrtime.bigint() - started) / 1e9,
        bytes: downloaded.bytes,
        checksumMatches: downloaded.sha256 === record.checksum_sha256,
        peakRssMiB: await peakRssMiB(service.pid),
      },
    };
  } finally {
    await service.stop();
    await database.drop();
  }
}

/** The same upload through a freshly started raw node:http → file pipe (bench/peers/raw-upload.ts). */
export async function measureRawUpload(sizeMiB: number, logDir: string): Promise<UploadFigures> {
  const peer = await startPeer('raw-upload', join(logDir, 'raw-upload.log'), '/');
  try {
    const { body: _body, ...upload } = await figures(peer, '/upload', sizeMiB, {});
    if (upload.status !== 201) throw new Error(`raw upload answered ${upload.status}`);
    return upload;
  } finally {
    await peer.stop();
  }
}
