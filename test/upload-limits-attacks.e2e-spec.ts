import http from 'node:http';
import request from 'supertest';
import type { Response } from 'supertest';
import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import { AuditEvent } from '../src/audit/audit-event.entity.js';
import { Clock, OrphanSweeper, FileRecord, FileStorage } from '@file-fields/nest';
import { ResumableUpload } from '@file-fields/nest/testing';
import { WebhookEvent } from '../src/webhooks/entities/webhook-event.entity.js';
import { createIntegration, integrationToken } from './support/admin-api.js';
import { expectProblem, PDF, PNG } from './support/fixtures.js';
import { eventually } from './support/wait.js';
import { ADMIN_PASSWORD, passwordToken, startTestApp, type TestApp } from './support/test-app.js';

const MINUTE = 60_000;
const OCTETS = 'application/offset+octet-stream';
const TUS = { 'Tus-Resumable': '1.0.0' };

/** Lets the clock of the instance run ahead (under the access tokens' hour), and back. */
function shiftClock(t: TestApp) {
  const clock = t.app.get(Clock);
  const realNow = clock.now.bind(clock);
  let ahead = 0;
  clock.now = () => new Date(realNow().getTime() + ahead);
  return { advance: (ms: number) => void (ahead += ms), restore: () => void (clock.now = realNow) };
}

/**
 * Makes the next `times` units of work that record a file (FilesService.attach) fail as a PostgreSQL deadlock would,
 * after their work ran and before they commit: the transaction rolls back whole, and the unit of work runs it once
 * more (then answers 503).
 */
function deadlockAttach(dataSource: DataSource, times = 1): { fired: () => number; restore: () => void } {
  const original = dataSource.transaction.bind(dataSource) as (...args: unknown[]) => Promise<unknown>;
  let fired = 0;
  dataSource.transaction = (...args: unknown[]) => {
    const work = args.pop() as (manager: EntityManager) => Promise<unknown>;
    return original(...args, async (manager: EntityManager) => {
      const result = await work(manager);
      if (fired < times && result && typeof result === 'object' && 'records' in result) {
        fired += 1;
        const driverError = Object.assign(new Error('deadlock detected'), { code: '40P01' });
        throw new QueryFailedError('COMMIT', [], driverError);
      }
      return result;
    });
  };
  return { fired: () => fired, restore: () => void (dataSource.transaction = original as never) };
}

describe('Attacks on the limits of unfinished uploads and on the retried unit of work', () => {
  let t: TestApp;
  const raw = () => request(t.url);
  const onPostgres = () => t.dataSource.options.type === 'postgres';
  const newArticle = async () =>
    (await t.http.post('/articles').send({ title: 'attacks' }).expect(201)).body.id as number;
  const newIntegration = () => createIntegration(t, ['article:write', 'article:read']);
  const open = (bearer: string, article: number, field = 'attachments', length = 10) =>
    raw()
      .post(`/files/article/${article}/${field}`)
      .set('Authorization', bearer)
      .set({ ...TUS, 'Upload-Length': String(length) });
  const opened = async (bearer: string, article: number, field = 'attachments', length = 10) => {
    const res = await open(bearer, article, field, length);
    expect(res.status).toBe(201);
    return new URL(res.headers.location).pathname;
  };
  const retryAfterOf = (res: Response) => {
    expectProblem(res, 429, 'too-many-open-uploads');
    const header = res.headers['retry-after'];
    expect(header).toMatch(/^[1-9]\d*$/);
    return Number(header);
  };

  beforeAll(async () => {
    t = await startTestApp({
      OPEN_UPLOADS_PER_PRINCIPAL: '3',
      RESUMABLE_UPLOAD_EXPIRY: '10m',
      RESUMABLE_UPLOAD_LIFETIME: '25m',
    });
  });
  afterAll(() => t.close({ destroy: true }));

  it('counts a principal once however many tokens it holds: a user signed in twice, an integration with two tokens', async () => {
    const article = await newArticle();
    const first = `Bearer ${(await passwordToken(t.url, 'admin', ADMIN_PASSWORD)).access_token}`;
    const second = `Bearer ${(await passwordToken(t.url, 'admin', ADMIN_PASSWORD)).access_token}`;
    expect(second).not.toBe(first);
    for (const bearer of [first, second, first]) await opened(bearer, article);
    retryAfterOf(await open(second, article));

    const integration = await newIntegration();
    const tokens = [await integrationToken(t.url, integration), await integrationToken(t.url, integration)];
    for (const token of [tokens[0], tokens[1], tokens[0]]) await opened(`Bearer ${token}`, article);
    retryAfterOf(await open(`Bearer ${tokens[1]}`, article));
  });

  it('holds no slot for an upload that completes in the request creating it (tus creation-with-upload, draft Upload-Complete: ?1)', async () => {
    const bearer = `Bearer ${await integrationToken(t.url, await newIntegration())}`;
    const article = await newArticle();
    await opened(bearer, article);
    await opened(bearer, article);
    for (let n = 0; n < 3; n += 1) {
      await raw()
        .post(`/files/article/${article}/attachments`)
        .set('Authorization', bearer)
        .set({ ...TUS, 'Upload-Length': String(PDF.length), 'Content-Type': OCTETS })
        .send(PDF)
        .expect(201);
      await raw()
        .post(`/files/article/${article}/attachments`)
        .set('Authorization', bearer)
        .set({ 'Upload-Complete': '?1', 'Content-Type': 'application/pdf' })
        .send(PDF)
        .expect(201);
    }
    await opened(bearer, article);
    retryAfterOf(await open(bearer, article));
  });

  it("frees the slot and the field's room of an upload refused on its first bytes (415); a checksum mismatch keeps it open", async () => {
    const bearer = `Bearer ${await integrationToken(t.url, await newIntegration())}`;
    const article = await newArticle();
    const thumbnail = await opened(bearer, article, 'thumbnail', PDF.length);
    const refused = await raw()
      .patch(thumbnail)
      .set('Authorization', bearer)
      .set({ ...TUS, 'Content-Type': OCTETS, 'Upload-Offset': '0' })
      .send(PDF);
    expectProblem(refused, 415);
    const location = await opened(bearer, article, 'thumbnail', PNG.length);

    const mismatch = await raw()
      .patch(location)
      .set('Authorization', bearer)
      .set({ ...TUS, 'Content-Type': OCTETS, 'Upload-Offset': '0' })
      .set('Upload-Checksum', `sha1 ${Buffer.alloc(20).toString('base64')}`)
      .send(PNG);
    expect(mismatch.status).toBe(460);
    // Still open, so it still holds the single field: a second upload into it waits.
    expectProblem(await open(bearer, article, 'thumbnail', PNG.length), 409, 'field-full');
    await raw()
      .patch(location)
      .set('Authorization', bearer)
      .set({ ...TUS, 'Content-Type': OCTETS, 'Upload-Offset': '0' })
      .send(PNG)
      .expect(204);
    await opened(bearer, article);
    await opened(bearer, article);
    await opened(bearer, article);
    retryAfterOf(await open(bearer, article));
  });

  it('frees the slots of expired uploads before any sweep; Retry-After counts down to 1, never 0 or past the expiry', async () => {
    const bearer = `Bearer ${await integrationToken(t.url, await newIntegration())}`;
    const article = await newArticle();
    const locations = [await opened(bearer, article), await opened(bearer, article), await opened(bearer, article)];
    expect(retryAfterOf(await open(bearer, article))).toBeLessThanOrEqual(600);
    const clock = shiftClock(t);
    try {
      clock.advance(10 * MINUTE - 5000);
      expect(retryAfterOf(await open(bearer, article))).toBeLessThanOrEqual(5);
      clock.advance(5000);
      await raw().head(locations[0]).set('Authorization', bearer).set(TUS).expect(410);
      const fresh = await opened(bearer, article);
      await t.app.get(OrphanSweeper).sweep();
      await raw().head(fresh).set('Authorization', bearer).set(TUS).expect(200);
    } finally {
      clock.restore();
    }
    for (const location of locations) await raw().head(location).set('Authorization', bearer).set(TUS).expect(404);
    await opened(bearer, article);
    await opened(bearer, article);
    retryAfterOf(await open(bearer, article));
  });

  it("gives a Retry-After no later than the uploads' lifetime, whatever expiry their rows hold", async () => {
    const bearer = `Bearer ${await integrationToken(t.url, await newIntegration())}`;
    const article = await newArticle();
    for (let n = 0; n < 3; n += 1) await opened(bearer, article);
    // Rows written while RESUMABLE_UPLOAD_LIFETIME was longer (or the expiry longer than the lifetime now).
    await t.dataSource
      .getRepository(ResumableUpload)
      .update({ attachmentId: article }, { expiresAt: Date.now() + 10 * 60 * MINUTE });
    expect(retryAfterOf(await open(bearer, article))).toBeLessThanOrEqual(25 * 60);
  });

  it('does not let a body that is still arriving when the lifetime ends complete the upload past it (410, nothing kept)', async () => {
    const bearer = `Bearer ${await integrationToken(t.url, await newIntegration())}`;
    const article = await newArticle();
    const location = await opened(bearer, article, 'attachments', PDF.length);
    const uploads = t.dataSource.getRepository(ResumableUpload);
    const patch = http.request(new URL(location, t.url), {
      method: 'PATCH',
      headers: {
        Authorization: bearer,
        ...TUS,
        'Content-Type': OCTETS,
        'Upload-Offset': '0',
        'Content-Length': String(PDF.length),
      },
    });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      patch.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      patch.on('error', reject);
    });
    patch.write(PDF.subarray(0, 10));
    // The request holds the upload (it passed the expiry check) before the lifetime ends.
    await eventually('the PATCH to hold the upload', async () => {
      const row = await uploads.findOneBy({ attachmentId: article });
      return row?.leaseUntil ? row : undefined;
    });
    const clock = shiftClock(t);
    let answer: { status: number; body: string };
    try {
      clock.advance(25 * MINUTE);
      patch.end(PDF.subarray(10));
      answer = await answered;
    } finally {
      clock.restore();
    }
    expect(answer.status).toBe(410);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 410 });
    expect(await t.dataSource.getRepository(FileRecord).findBy({ attachmentId: article })).toEqual([]);
    expect(await uploads.findBy({ attachmentId: article })).toEqual([]);
  });

  it("answers 404, never 5xx, to a PATCH of an entity or a completing upload racing the entity's DELETE, and leaves no file behind", async () => {
    const bearer = `Bearer ${await integrationToken(t.url, await newIntegration())}`;
    for (let round = 0; round < 6; round += 1) {
      const article = await newArticle();
      const location = await opened(bearer, article, 'attachments', PDF.length);
      const [patched, completed, deleted] = await Promise.all([
        t.http.patch(`/articles/${article}`).send({ title: `round ${round}` }),
        raw()
          .patch(location)
          .set('Authorization', bearer)
          .set({ ...TUS, 'Content-Type': OCTETS, 'Upload-Offset': '0' })
          .send(PDF),
        t.http.delete(`/articles/${article}`),
      ]);
      expect(deleted.status).toBe(204);
      expect([200, 404]).toContain(patched.status);
      expect([204, 404]).toContain(completed.status);
      if (patched.status === 404) expectProblem(patched, 404);
      if (completed.status === 404) expectProblem(completed, 404);
      await t.http.patch(`/articles/${article}`).send({ title: 'gone' }).expect(404);
      const records = await t.dataSource.getRepository(FileRecord).findBy({ attachmentId: article });
      expect(records).toEqual([]);
      if (completed.status === 204) continue;
      const uploads = await t.dataSource.getRepository(ResumableUpload).findBy({ attachmentId: article });
      expect(uploads).toEqual([]);
    }
  });

  it('writes the webhook event, the audit row and the file once when the recording unit of work is run again after a deadlock', async () => {
    const article = await newArticle();
    const bearer = `Bearer ${await integrationToken(t.url, await newIntegration())}`;
    const location = await opened(bearer, article, 'attachments', PDF.length);
    // SQLite runs one transaction at a time and never deadlocks: there the same upload must simply be recorded once.
    const injected = onPostgres() ? deadlockAttach(t.dataSource) : undefined;
    let multipart: Response;
    try {
      await raw()
        .patch(location)
        .set('Authorization', bearer)
        .set({ ...TUS, 'Content-Type': OCTETS, 'Upload-Offset': '0' })
        .send(PDF)
        .expect(204);
      expect(injected?.fired() ?? 1).toBe(1);
    } finally {
      injected?.restore();
    }
    const injectedAgain = onPostgres() ? deadlockAttach(t.dataSource) : undefined;
    try {
      multipart = await t.http.post(`/files/article/${article}/attachments`).attach('file', PDF, 'b.pdf').expect(201);
      expect(injectedAgain?.fired() ?? 1).toBe(1);
    } finally {
      injectedAgain?.restore();
    }

    const records = await t.dataSource.getRepository(FileRecord).findBy({ attachmentId: article });
    expect(records).toHaveLength(2);
    expect(records.map((record) => record.id)).toContain(multipart.body.id);
    const events = await t.dataSource.getRepository(WebhookEvent).findBy({ kind: 'file.created' });
    const audits = await t.dataSource.getRepository(AuditEvent).findBy({ action: 'file.upload' });
    const storage = t.app.get(FileStorage);
    for (const record of records) {
      const about = events.filter((event) => (event.data as { file?: { id?: number } }).file?.id === record.id);
      expect(about).toHaveLength(1);
      expect(audits.filter((audit) => audit.targetId === String(record.id))).toHaveLength(1);
      expect(await storage.exists(record.storageKey)).toBe(true);
    }
    expect(await t.dataSource.getRepository(ResumableUpload).findBy({ attachmentId: article })).toEqual([]);
  });

  it('answers a completion that collides twice with a 503 problem and Retry-After, keeping no record, event, bytes or slot', async () => {
    const bearer = `Bearer ${await integrationToken(t.url, await newIntegration())}`;
    const article = await newArticle();
    const location = await opened(bearer, article, 'attachments', PDF.length);
    const row = await t.dataSource.getRepository(ResumableUpload).findOneByOrFail({ attachmentId: article });
    const eventsBefore = await t.dataSource.getRepository(WebhookEvent).count();
    // SQLite runs one transaction at a time and never deadlocks: there the completion simply succeeds.
    const injected = onPostgres() ? deadlockAttach(t.dataSource, 2) : undefined;
    let res: Response;
    try {
      res = await raw()
        .patch(location)
        .set('Authorization', bearer)
        .set({ ...TUS, 'Content-Type': OCTETS, 'Upload-Offset': '0' })
        .send(PDF);
    } finally {
      injected?.restore();
    }
    const records = await t.dataSource.getRepository(FileRecord).findBy({ attachmentId: article });
    if (injected) {
      expect(injected.fired()).toBe(2);
      expectProblem(res, 503, 'transaction-conflict');
      expect(res.headers['retry-after']).toBe('1');
      expect(records).toEqual([]);
      expect(await t.dataSource.getRepository(WebhookEvent).count()).toBe(eventsBefore);
      expect(await t.app.get(FileStorage).exists(row.storageKey)).toBe(false);
    } else {
      expect(res.status).toBe(204);
      expect(records).toHaveLength(1);
    }
    expect(await t.dataSource.getRepository(ResumableUpload).findBy({ attachmentId: article })).toEqual([]);
    await opened(bearer, article);
    await opened(bearer, article);
    await opened(bearer, article);
    retryAfterOf(await open(bearer, article));
  });
});
