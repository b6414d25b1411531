import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { OrphanSweeper, FileVariants, FileStorage } from '@file-fields/nest';
import { expectProblem, PNG } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const fault = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('Storage faults are 507/503 problems, and /health notices them', () => {
  let t: TestApp;
  let storage: FileStorage;
  let productId: number;

  const storedKeys = async (): Promise<string[]> => {
    // Image variants are made in the background after an upload: a listing waits until none is being made.
    await t.app.get(FileVariants).settled();
    const keys: string[] = [];
    for await (const object of storage.list()) keys.push(object.key);
    return keys.sort();
  };
  const uploadCover = () => t.http.post(`/files/product/${productId}/cover`).attach('file', PNG, 'c.png');

  beforeAll(async () => {
    t = await startTestApp();
    storage = t.app.get(FileStorage);
    productId = (await t.http.post('/products').send({ name: 'faulty' }).expect(201)).body.id;
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => t.close({ destroy: true }));

  it('answers 507 when the storage is full, storing nothing', async () => {
    const before = await storedKeys();
    jest.spyOn(storage, 'put').mockRejectedValue(fault('ENOSPC', 'disk /dev/sda9 exhausted'));
    const res = await uploadCover();
    expectProblem(res, 507, 'storage-full');
    expect(JSON.stringify(res.body)).not.toContain('sda9');
    jest.restoreAllMocks();
    expect(await storedKeys()).toEqual(before);
    expect((await t.http.get(`/products/${productId}`).expect(200)).body.cover).toBeNull();
  });

  it.each(['EROFS', 'EIO', 'EACCES', 'ECONNREFUSED'])(
    'answers 503 with Retry-After to %s while storing',
    async (code) => {
      jest.spyOn(storage, 'put').mockRejectedValue(fault(code));
      const res = await uploadCover();
      expectProblem(res, 503, 'storage-unavailable');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    },
  );

  it('answers 503 with Retry-After when an object store answers 5xx', async () => {
    const s3Error = Object.assign(new Error('We encountered an internal error'), {
      name: 'InternalError',
      $metadata: { httpStatusCode: 500 },
    });
    jest.spyOn(storage, 'put').mockRejectedValue(s3Error);
    const res = await uploadCover();
    expectProblem(res, 503, 'storage-unavailable');
    expect(res.headers['retry-after']).toBeDefined();
  });

  it('answers 503 file-content-unavailable with Retry-After, logged as an error, when a record’s bytes are gone', async () => {
    const record = (await uploadCover().expect(201)).body as { id: number; path: string };
    await rm(join(t.dataDir, 'files', ...record.path.split('/')));
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const res = await t.http.get(`/files/${record.id}/content`);
    expectProblem(res, 503, 'file-content-unavailable');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(logged).toHaveBeenCalled();
    await t.http.get(`/files/${record.id}`).expect(200);
  });

  describe('/health', () => {
    it('is up with a working storage, and its write probe leaves nothing the sweeper or a listing sees', async () => {
      await request(t.url).get('/health').expect(200);
      const before = await storedKeys();
      await request(t.url).get('/health').expect(200);
      expect(await storedKeys()).toEqual(before);
      const report = await t.app.get(OrphanSweeper).sweep({ graceMs: 0, dryRun: true });
      expect(report.orphans).toEqual([]);
    });

    it.each([
      ['ENOSPC', /full/],
      ['EROFS', /read-only/],
    ])('reports storage down with a reason when the storage check fails with %s', async (code, reason) => {
      jest.spyOn(storage, 'check').mockRejectedValue(fault(code, '/secret/path'));
      const res = await request(t.url).get('/health');
      expectProblem(res, 503);
      expect(res.body.checks).toEqual({ database: 'up', storage: 'down' });
      expect(res.body.reasons.storage).toMatch(reason);
      expect(JSON.stringify(res.body)).not.toContain('/secret/path');
    });

    it('really writes: a storage where the probe cannot create its file is down', async () => {
      // Root ignores permission bits, so the probe is made to fail another way: its directory is a file.
      const reserved = join(t.dataDir, 'files', '.health');
      await rm(reserved, { recursive: true, force: true });
      await writeFile(reserved, 'in the way');
      try {
        const res = await request(t.url).get('/health');
        expectProblem(res, 503);
        expect(res.body.checks.storage).toBe('down');
        expect(res.body.reasons.storage).toEqual(expect.any(String));
      } finally {
        await rm(reserved, { force: true });
      }
      await request(t.url).get('/health').expect(200);
    });
  });
});
