import { S3Client } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { hashUploadId } from '@file-fields/nest/testing';
import { FileStorage, FileVariants } from '@file-fields/nest';
import type { S3TestServer } from './s3-server.js';
import { startTestApp, type TestApp } from './test-app.js';

export const MiB = 1024 * 1024;
export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A PDF to file-type (its signature), of any size: the gallery takes PDFs. */
export const pdfOf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);

export interface Started {
  id: string;
  part_size: number;
  parts: Array<{ part_number: number; url: string; size: number }>;
  complete_url: string;
  expires_at: string;
}

/** The app on an S3-protocol server, and the client moves of a direct upload. */
export function directUploadContext(startStorage: () => Promise<S3TestServer>) {
  const c = {} as { t: TestApp; s3: S3TestServer; product: number; bytesReceived: () => number };
  beforeAll(async () => {
    c.s3 = await startStorage();
    // Five minutes to complete: the sweep test moves the clock past that, not past the access token's hour.
    c.t = await startTestApp({ ...c.s3.env, MAX_FILE_SIZE: String(24 * MiB), DIRECT_UPLOAD_TTL: '5m' });
    const sockets = new Set<Socket>();
    c.t.app.getHttpServer().on('connection', (socket: Socket) => sockets.add(socket));
    c.bytesReceived = () => [...sockets].reduce((sum, socket) => sum + socket.bytesRead, 0);
    c.product = (await c.t.http.post('/products').send({ name: 'Lamp' }).expect(201)).body.id as number;
  });
  afterAll(async () => {
    await c.t.app.get(FileVariants).settled();
    await c.t.close({ destroy: true });
    await c.s3.stop();
  });
  return c;
}

export const start = (t: TestApp, field: string, product: number, file: Buffer, content_type: string) =>
  t.http
    .post(`/files/product/${product}/${field}/direct-uploads`)
    .send({ filename: 'f.bin', content_type, size: file.length });

/** PUTs each part straight to its presigned URL (no service in the path); answers the parts to complete with. */
export async function putParts(started: Started, bytes: Buffer, only?: number[]) {
  const parts = [];
  for (const part of started.parts.filter((p) => !only || only.includes(p.part_number))) {
    const offset = (part.part_number - 1) * started.part_size;
    const res = await fetch(part.url, { method: 'PUT', body: bytes.subarray(offset, offset + part.size) });
    expect(res.status).toBe(200);
    parts.push({ part_number: part.part_number, etag: res.headers.get('etag') ?? '' });
  }
  return parts;
}

export async function storedKeys(t: TestApp): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of t.app.get(FileStorage).list()) keys.push(object.key);
  return keys;
}

export async function row(t: TestApp, id: string): Promise<{ storage_key: string; s3_upload_id: string } | undefined> {
  const rows: Array<{ storage_key: string; s3_upload_id: string }> = await t.dataSource.query(
    `SELECT storage_key, s3_upload_id FROM direct_uploads WHERE id_hash = ${t.dataSource.options.type === 'postgres' ? '$1' : '?'}`,
    [hashUploadId(id)],
  );
  return rows[0];
}

export function s3ClientOf(s3: S3TestServer): S3Client {
  return new S3Client({
    endpoint: s3.env.S3_ENDPOINT,
    region: s3.env.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.env.S3_ACCESS_KEY_ID, secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY },
  });
}
