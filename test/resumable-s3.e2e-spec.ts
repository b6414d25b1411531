import type { S3Client } from '@aws-sdk/client-s3';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { FileUrlStorage, Upload, type PreviousUpload } from 'tus-js-client';
import { Clock, OrphanSweeper } from '@file-fields/nest';
import { MiB, s3ClientOf, sha256 } from './support/direct-uploads.js';
import { startFauxqsServer } from './support/fauxqs-server.js';
import { expectProblem, PDF } from './support/fixtures.js';
import { bucketKeys as keysIn, multipartAlive as alive, storedState } from './support/resumable-s3.js';
import type { S3TestServer } from './support/s3-server.js';
import { ADMIN_PASSWORD, createTestDatabase, passwordToken, startApp, type TestApp } from './support/test-app.js';

const TUS = { 'Tus-Resumable': '1.0.0' };
const OCTETS = 'application/offset+octet-stream';
/** The tus creation answers 201 without a body, which the operation's text describes (its 201 schema is the record's). */

describe('Resumable uploads on S3 storage (fauxqs), across two instances', () => {
  let s3: S3TestServer;
  let client: S3Client;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let token: string;
  let urlStorageDir: string;
  const auth = () => ({ ...TUS, Authorization: `Bearer ${token}` });
  const createArticle = async () =>
    (await a.http.post('/articles').send({ title: 'tus on S3' }).expect(201)).body.id as number;
  const create = async (on: TestApp, path: string, length: number) => {
    const res = await request(on.url)
      .post(path)
      .set(auth())

      .set({ 'Upload-Length': String(length) })
      .expect(201);
    return new URL(res.headers.location).pathname;
  };
  const patch = (on: TestApp, location: string, offset: number, body: Buffer, headers: Record<string, string> = {}) =>
    request(on.url)
      .patch(location)
      .set(auth())
      .set({ 'Content-Type': OCTETS, 'Upload-Offset': String(offset), ...headers })
      .send(body);
  const bucketKeys = (prefix = '') => keysIn(client, s3.env.S3_BUCKET, prefix);
  const state = (location: string) => storedState(a.dataSource, location);
  const multipartAlive = (key: string, uploadId: string) => alive(client, s3.env.S3_BUCKET, key, uploadId);
  const content = async (on: TestApp, fileId: string) =>
    (await on.http.get(`/files/${fileId}/content`).buffer(true).expect(200)).body as Buffer;

  beforeAll(async () => {
    s3 = await startFauxqsServer('resumable-e2e');
    client = s3ClientOf(s3);
    database = await createTestDatabase();
    const env = { ...s3.env, MAX_FILE_SIZE: String(40 * MiB) };
    a = await startApp(database, env);
    // One issuer for both, as behind a load balancer: a token and an upload's Location are valid on either.
    b = await startApp(database, { ...env, OAUTH_ISSUER: a.url });
    token = (await passwordToken(a.url, 'admin', ADMIN_PASSWORD)).access_token;
    urlStorageDir = await mkdtemp(join(tmpdir(), 'tus-s3-urls-'));
  });
  afterAll(async () => {
    client.destroy();
    await b.close();
    await a.close({ destroy: true });
    await s3.stop();
    await rm(urlStorageDir, { recursive: true, force: true });
  });

  it('tus-js-client: 12 MiB in chunks of 3 MiB + 1234, interrupted on one instance and finished on the other', async () => {
    const id = await createArticle();
    const file = randomBytes(12 * MiB + 4321);
    const options = (on: TestApp) => ({
      endpoint: `${on.url}/files/article/${id}/attachments`,
      headers: { Authorization: `Bearer ${token}` },
      metadata: { filename: 'film.bin', filetype: 'application/octet-stream' },
      chunkSize: 3 * MiB + 1234,
      retryDelays: null,
      // The same file whichever instance the client talks to (the default fingerprint has the endpoint in it).
      fingerprint: () => Promise.resolve(`film-${id}`),
      urlStorage: new FileUrlStorage(join(urlStorageDir, 'urls.json')),
    });
    const first = new Upload(file, options(a));
    const interruptedAt = await new Promise<number>((resolve, reject) => {
      first.options.onError = reject;
      first.options.onChunkComplete = (_size, accepted, total) => {
        if (accepted >= total * 0.4) void first.abort().then(() => resolve(accepted), reject);
      };
      first.start();
    });
    expect(interruptedAt).toBe(2 * (3 * MiB + 1234));
    const midway = await state(new URL(first.url!).pathname);
    // Two requests: the first left a 3 MiB tail, the second read it back and sent the 6 MiB as part 1.
    expect(midway.parts.map((part) => part.size)).toEqual([interruptedAt]);
    expect(midway.tail).toBeNull();

    const second = new Upload(file, options(b));
    const previous: PreviousUpload[] = await second.findPreviousUploads();
    expect(previous).toHaveLength(1);
    // A load balancer sends the client to the other instance: the upload's URL is the same path there.
    const onB = { ...previous[0], uploadUrl: `${b.url}${new URL(previous[0].uploadUrl!).pathname}` };
    second.resumeFromPreviousUpload(onB);
    let resumedFrom: number | undefined;
    const fileId = await new Promise<string>((resolve, reject) => {
      second.options.onError = reject;
      second.options.onProgress = (sent) => (resumedFrom ??= sent);
      second.options.onSuccess = ({ lastResponse }) => resolve(lastResponse.getHeader('File-Id') ?? '');
      second.start();
    });
    expect(resumedFrom).toBeGreaterThanOrEqual(interruptedAt);
    const record = (await b.http.get(`/files/${fileId}`).expect(200)).body;
    expect(record).toMatchObject({ original_name: 'film.bin', size: file.length });
    expect(record.checksum_sha256).toBe(sha256(file));
    expect(sha256(await content(a, fileId))).toBe(sha256(file));
    expect(await bucketKeys('.resumable/')).toEqual([]);
  });

  it('goes back to the stored state after a body it kept out (460), whichever instance the next request reaches', async () => {
    const id = await createArticle();
    const file = randomBytes(12 * MiB + 77);
    const at = [0, 6 * MiB + 100, 9 * MiB + 100, 11 * MiB + 200, file.length];
    const piece = (n: number) => file.subarray(at[n], at[n + 1]);
    const location = await create(a, `/files/article/${id}/attachments`, file.length);
    await patch(a, location, 0, piece(0)).expect(204);
    expect((await state(location)).parts.map((part) => part.size)).toEqual([6 * MiB + 100]);
    await patch(b, location, at[1], piece(1)).expect(204);
    expect((await state(location)).tail?.size).toBe(3 * MiB);
    // A body whose checksum does not match is sent as part 2 (5 MiB + 100 with the tail before it), then kept out.
    const wrong = `sha256 ${createHash('sha256').update('other').digest('base64')}`;
    expectProblem(await patch(a, location, at[2], piece(2), { 'Upload-Checksum': wrong }), 460, 'checksum-mismatch');
    expect((await request(b.url).head(location).set(auth()).expect(200)).headers['upload-offset']).toBe(String(at[2]));
    await patch(b, location, at[2], piece(2)).expect(204);
    const beforeLast = await state(location);
    expect(beforeLast.parts.map((part) => part.size)).toEqual([6 * MiB + 100, 5 * MiB + 100]);
    expect(beforeLast.tail).toBeNull();
    // The last bytes are a tail, sent as part 3 at completion.
    const last = await patch(a, location, at[3], piece(3)).expect(204);
    const fileId = last.headers['file-id'];
    expect((await a.http.get(`/files/${fileId}`).expect(200)).body.checksum_sha256).toBe(sha256(file));
    expect(sha256(await content(b, fileId))).toBe(sha256(file));
    expect(await multipartAlive(beforeLast.key, beforeLast.uploadId!)).toBe(false);
    expect(await bucketKeys('.resumable/')).toEqual([]);
  });

  it('stores a file shorter than a part from its tail, with no multipart upload', async () => {
    const id = await createArticle();
    const file = randomBytes(3 * MiB + 5);
    const location = await create(a, `/files/article/${id}/attachments`, file.length);
    await patch(a, location, 0, file.subarray(0, MiB)).expect(204);
    expect(await state(location)).toMatchObject({ uploadId: null, parts: [], tail: { size: MiB } });
    const last = await patch(b, location, MiB, file.subarray(MiB)).expect(204);
    expect(sha256(await content(a, last.headers['file-id']))).toBe(sha256(file));
    expect(await bucketKeys('.resumable/')).toEqual([]);
  });

  it('ends a refused type with no object and no multipart upload left', async () => {
    const id = await createArticle();
    const body = Buffer.concat([PDF, randomBytes(6 * MiB)]);
    const location = await create(a, `/files/article/${id}/thumbnail`, body.length);
    // 100 bytes pass unjudged into a tail; the next request brings enough to sniff, on the other instance.
    await patch(a, location, 0, body.subarray(0, 100)).expect(204);
    const { key } = await state(location);
    expect(await bucketKeys(`.resumable/${key}/`)).toHaveLength(1);
    expectProblem(await patch(b, location, 100, body.subarray(100)), 415, 'unsupported-media-type');
    await request(a.url).head(location).set(auth()).expect(404);
    expect(await bucketKeys('.resumable/')).toEqual([]);
    expect(await bucketKeys(key)).toEqual([]);
  });

  it('terminates with DELETE: the multipart upload aborted, head and tail gone', async () => {
    const id = await createArticle();
    const location = await create(a, `/files/article/${id}/attachments`, 20 * MiB);
    await patch(a, location, 0, randomBytes(7 * MiB)).expect(204);
    await patch(b, location, 7 * MiB, randomBytes(MiB)).expect(204);
    const { key, uploadId } = await state(location);
    expect(await bucketKeys(`.resumable/${key}/`)).toHaveLength(2);
    expect(await multipartAlive(key, uploadId!)).toBe(true);
    await request(b.url).delete(location).set(auth()).expect(204);
    expect(await multipartAlive(key, uploadId!)).toBe(false);
    expect(await bucketKeys('.resumable/')).toEqual([]);
  });

  it('sweeps an abandoned upload: multipart upload aborted, tail and head gone', async () => {
    const id = await createArticle();
    const location = await create(a, `/files/article/${id}/attachments`, 20 * MiB);
    await patch(a, location, 0, randomBytes(6 * MiB)).expect(204);
    await patch(b, location, 6 * MiB, randomBytes(2 * MiB)).expect(204);
    const { key, uploadId, tail } = await state(location);
    expect(tail?.size).toBe(2 * MiB);
    const clock = b.app.get(Clock);
    const realNow = clock.now.bind(clock);
    clock.now = () => new Date(realNow().getTime() + 25 * 3_600_000);
    try {
      const report = await b.app.get(OrphanSweeper).sweep();
      expect(report.expiredUploads).toContain(key);
    } finally {
      clock.now = realNow;
    }
    await request(a.url).head(location).set(auth()).expect(404);
    expect(await multipartAlive(key, uploadId!)).toBe(false);
    expect(await bucketKeys('.resumable/')).toEqual([]);
  });
});
