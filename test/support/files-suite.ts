import { FileRecord, OrphanSweeper, FileStorage, FileVariants } from '@file-fields/nest';
import { Readable } from 'node:stream';
import { startTestApp, type TestApp } from './test-app.js';
import { expectProblem, GIF, PDF, PNG } from './fixtures.js';

/** Provides the environment of one storage driver for the suite, and stops what it started. */
export interface StorageUnderTest {
  start(): Promise<{ env: Record<string, string>; stop(): Promise<void> }>;
}

/**
 * The files e2e suite. It runs once per storage driver (test/files.e2e-spec.ts, test/files-s3.e2e-spec.ts),
 * and once per database in CI.
 */
export function describeFilesSuite(driver: string, storageUnderTest: StorageUnderTest): void {
  describe(`Files (${driver} storage): upload to entity fields and resolution on responses`, () => {
    let t: TestApp;
    let stopStorage: () => Promise<void>;
    /** Image variants are made in the background after an upload, and after a read that finds one missing. */
    const variantsSettled = () => t.app.get(FileVariants).settled();
    const storedFiles = async (): Promise<string[]> => {
      // A listing waits until no variant is being made.
      await variantsSettled();
      const keys: string[] = [];
      for await (const object of t.app.get(FileStorage).list()) keys.push(object.key);
      return keys.sort();
    };
    const api = () => t.http;
    const createProduct = async (name = 'Lamp') =>
      (await api().post('/products').send({ name }).expect(201)).body.id as number;
    const upload = (path: string, ...files: Array<[Buffer, string]>) => {
      const req = api().post(path);
      for (const [bytes, name] of files) req.attach('file', bytes, name);
      return req;
    };

    beforeAll(async () => {
      const storage = await storageUnderTest.start();
      stopStorage = storage.stop;
      // 20 parallel uploads of one principal below need as many upload slots (UPLOADS_PER_PRINCIPAL).
      t = await startTestApp({ MAX_FILE_SIZE: String(64 * 1024), UPLOADS_PER_PRINCIPAL: '20', ...storage.env });
    });
    afterAll(async () => {
      await t.close({ destroy: true });
      await stopStorage();
    });

    it('creates a single field record (201), then replaces its file keeping the id (200) and removes the old bytes', async () => {
      const id = await createProduct();
      const first = await upload(`/files/product/${id}/cover`, [PNG, 'a.png']).expect(201);
      expect(first.body).toMatchObject({
        attachment_type: 'product',
        attachment_id: id,
        field: 'cover',
        sort_order: 0,
      });
      // The first file's variants are recorded before it is replaced: a replacement racing with them is not this
      // test's subject, and bytes it left would be found by the orphan sweep below.
      await variantsSettled();
      const second = await upload(`/files/product/${id}/cover`, [GIF, 'b.gif']).expect(200);
      expect(second.body.id).toBe(first.body.id);
      expect(second.body.path).not.toBe(first.body.path);
      expect(second.body).toMatchObject({ mime_type: 'image/gif', original_name: 'b.gif', size: GIF.length });
      const files = await storedFiles();
      expect(files).not.toContain(first.body.path);
      expect(files).toContain(second.body.path);
    });

    it('appends to a multi field in order and resolves both fields on GET', async () => {
      const id = await createProduct();
      await upload(`/files/product/${id}/cover`, [PNG, 'cover.png']).expect(201);
      for (const n of [0, 1, 2]) {
        const res = await upload(`/files/product/${id}/gallery`, [PNG, `g${n}.png`]).expect(201);
        expect(res.body.sort_order).toBe(n);
      }
      const product = (await api().get(`/products/${id}`).expect(200)).body;
      expect(product.cover).toMatchObject({ field: 'cover', original_name: 'cover.png' });
      expect(product.gallery.map((f: { original_name: string }) => f.original_name)).toEqual([
        'g0.png',
        'g1.png',
        'g2.png',
      ]);
      expect(Object.keys(product.gallery[0]).sort()).toEqual(
        [
          'attachment_id',
          'attachment_type',
          'checksum_sha256',
          'created_at',
          'field',
          'id',
          'mime_type',
          'original_name',
          'path',
          'size',
          'sort_order',
          'updated_at',
          'url',
          'width',
          'height',
          'variants',
        ].sort(),
      );
    });

    it('resolves empty fields to null and []', async () => {
      const id = await createProduct();
      const product = (await api().get(`/products/${id}`).expect(200)).body;
      expect(product.cover).toBeNull();
      expect(product.gallery).toEqual([]);
    });

    it('appends several parts of one request in order and answers an array', async () => {
      const id = await createProduct();
      const res = await upload(`/files/product/${id}/gallery`, [PNG, 'x.png'], [PDF, 'y.pdf'], [PNG, 'z.png']).expect(
        201,
      );
      expect(res.body.map((f: { sort_order: number }) => f.sort_order)).toEqual([0, 1, 2]);
      expect(res.body.map((f: { original_name: string }) => f.original_name)).toEqual(['x.png', 'y.pdf', 'z.png']);
    });

    it('gives 20 parallel uploads to one multi field the sort orders 0..19 exactly', async () => {
      const id = await createProduct();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => upload(`/files/product/${id}/gallery`, [PNG, `p${i}.png`])),
      );
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
      const orders = results.map((r) => r.body.sort_order as number).sort((a, b) => a - b);
      expect(orders).toEqual(Array.from({ length: 20 }, (_, i) => i));
    });

    it('sniffs the type from the bytes and never uses the client name in the storage path', async () => {
      const id = await createProduct();
      const res = await api()
        .post(`/files/product/${id}/cover`)
        .attach('file', PNG, { filename: '../../etc/passwd.txt', contentType: 'text/html' })
        .expect(201);
      expect(res.body.mime_type).toBe('image/png');
      expect(res.body.original_name).toBe('passwd.txt');
      expect(res.body.path).not.toMatch(/\.\.|^\/|passwd/);
      expect(res.body.path).toMatch(new RegExp(`^product/${id}/[0-9a-f-]{36}$`));
      expect(res.body.checksum_sha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it('works for another entity type (article) with its own fields', async () => {
      const article = (await api().post('/articles').send({ title: 'Notes' }).expect(201)).body;
      await upload(`/files/article/${article.id}/thumbnail`, [PNG, 't.png']).expect(201);
      await upload(`/files/article/${article.id}/attachments`, [PDF, 'a.pdf'], [PDF, 'b.pdf']).expect(201);
      const body = (await api().get(`/articles/${article.id}`).expect(200)).body;
      expect(body.thumbnail.original_name).toBe('t.png');
      expect(body.attachments.map((f: { sort_order: number }) => f.sort_order)).toEqual([0, 1]);
      await upload(`/files/article/${article.id}/cover`, [PNG, 'c.png']).expect(404);
    });

    describe('reading a file', () => {
      let record: { id: number; path: string; checksum_sha256: string; size: number };
      const bytes = Buffer.concat([PNG, Buffer.from('0123456789')]);

      beforeAll(async () => {
        const id = await createProduct();
        record = (await upload(`/files/product/${id}/cover`, [bytes, 'pic.png']).expect(201)).body;
      });

      it('answers the record and 404 for an unknown id', async () => {
        const res = await api().get(`/files/${record.id}`).expect(200);
        expect(res.body).toMatchObject({ id: record.id, path: record.path, mime_type: 'image/png' });
        expectProblem(await api().get('/files/999999'), 404, 'file-not-found');
        expectProblem(await api().get('/files/999999/content'), 404, 'file-not-found');
      });

      it('streams the whole file with validators and safe headers', async () => {
        const res = await api().get(`/files/${record.id}/content`).buffer(true).expect(200);
        expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
        expect(res.headers).toMatchObject({
          'content-type': 'image/png',
          'content-length': String(bytes.length),
          etag: `"${record.checksum_sha256}"`,
          'accept-ranges': 'bytes',
          'x-content-type-options': 'nosniff',
        });
        expect(res.headers['content-disposition']).toMatch(/^inline; filename="?pic\.png"?/);
        expect(new Date(res.headers['last-modified']).getTime()).not.toBeNaN();
      });

      it('answers 304 to a matching If-None-Match', async () => {
        const res = await api()
          .get(`/files/${record.id}/content`)
          .set('If-None-Match', `W/"x", "${record.checksum_sha256}"`);
        expect(res.status).toBe(304);
        expect(res.headers.etag).toBe(`"${record.checksum_sha256}"`);
      });

      it('serves one range as 206 and a suffix range', async () => {
        const res = await api().get(`/files/${record.id}/content`).set('Range', 'bytes=2-5').buffer(true).expect(206);
        expect(res.headers['content-range']).toBe(`bytes 2-5/${bytes.length}`);
        expect(Buffer.compare(res.body as Buffer, bytes.subarray(2, 6))).toBe(0);
        const tail = await api().get(`/files/${record.id}/content`).set('Range', 'bytes=-3').buffer(true).expect(206);
        expect((tail.body as Buffer).toString()).toBe('789');
      });

      it('answers 416 to an unsatisfiable range, and the whole file to several ranges or a stale If-Range', async () => {
        const bad = await api()
          .get(`/files/${record.id}/content`)
          .set('Range', `bytes=${bytes.length + 10}-`);
        expectProblem(bad, 416, 'range-not-satisfiable');
        expect(bad.headers['content-range']).toBe(`bytes */${bytes.length}`);
        const many = Array.from({ length: 500 }, (_, i) => `${i * 2}-${i * 2}`).join(',');
        await api().get(`/files/${record.id}/content`).set('Range', `bytes=${many}`).expect(200);
        await api().get(`/files/${record.id}/content`).set('Range', 'bytes=0-1').set('If-Range', '"stale"').expect(200);
        await api().get(`/files/${record.id}/content`).set('Range', 'pages=1-2').expect(200);
      });

      it('makes any type a browser could run or render unknown a download', async () => {
        const { id: article } = (await api().post('/articles').send({ title: 'dl' }).expect(201)).body;
        const bin = (
          await upload(`/files/article/${article}/attachments`, [Buffer.alloc(10, 1), 'run.bin']).expect(201)
        ).body;
        const res = await api().get(`/files/${bin.id}/content`).expect(200);
        expect(res.headers['content-disposition']).toMatch(/^attachment; filename="?run\.bin"?/);
      });
    });

    describe('deleting and reordering', () => {
      it('deletes a file, renumbers the rest 0..n-1 and removes its bytes', async () => {
        const id = await createProduct();
        const files = (
          await upload(`/files/product/${id}/gallery`, [PNG, 'a.png'], [PNG, 'b.png'], [PNG, 'c.png']).expect(201)
        ).body as Array<{ id: number; path: string }>;
        // As above: the thumbs are recorded before a file goes, so that its bytes all go with it.
        await variantsSettled();
        await api().delete(`/files/${files[1].id}`).expect(204);
        expectProblem(await api().delete(`/files/${files[1].id}`), 404, 'file-not-found');
        const gallery = (await api().get(`/products/${id}`).expect(200)).body.gallery;
        expect(gallery.map((f: { id: number; sort_order: number }) => [f.id, f.sort_order])).toEqual([
          [files[0].id, 0],
          [files[2].id, 1],
        ]);
        expect(await storedFiles()).not.toContain(files[1].path);
        await upload(`/files/product/${id}/gallery`, [PNG, 'd.png'])
          .expect(201)
          .expect((r) => expect(r.body.sort_order).toBe(2));
      });

      it('reorders a multi field when the list names exactly its files', async () => {
        const id = await createProduct();
        const files = (
          await upload(`/files/product/${id}/gallery`, [PNG, 'a.png'], [PNG, 'b.png'], [PNG, 'c.png']).expect(201)
        ).body as Array<{ id: number }>;
        const [a, b, c] = files.map((f) => f.id);
        const res = await api()
          .put(`/files/product/${id}/gallery/order`)
          .send({ ids: [c, a, b] })
          .expect(200);
        expect(res.body.map((f: { id: number; sort_order: number }) => [f.id, f.sort_order])).toEqual([
          [c, 0],
          [a, 1],
          [b, 2],
        ]);
        const gallery = (await api().get(`/products/${id}`).expect(200)).body.gallery;
        expect(gallery.map((f: { id: number }) => f.id)).toEqual([c, a, b]);
        expectProblem(
          await api()
            .put(`/files/product/${id}/gallery/order`)
            .send({ ids: [c, a] }),
          409,
          'order-mismatch',
        );
        expectProblem(
          await api()
            .put(`/files/product/${id}/gallery/order`)
            .send({ ids: [c, a, 999999] }),
          409,
          'order-mismatch',
        );
        expectProblem(
          await api()
            .put(`/files/product/${id}/gallery/order`)
            .send({ ids: [c, a, a] }),
          400,
          'validation-failed',
        );
        expectProblem(
          await api().put(`/files/product/${id}/gallery/order`).send({ ids: 'abc' }),
          400,
          'validation-failed',
        );
        expectProblem(await api().put(`/files/product/${id}/cover/order`).send({ ids: [] }), 400, 'not-a-multi-field');
        expectProblem(await api().put(`/files/product/${id}/nope/order`).send({ ids: [] }), 404, 'unknown-file-field');
        expectProblem(
          await api().put(`/files/product/999999/gallery/order`).send({ ids: [] }),
          404,
          'entity-not-found',
        );
        const after = (await api().get(`/products/${id}`).expect(200)).body.gallery;
        expect(after.map((f: { id: number }) => f.id)).toEqual([c, a, b]);
      });
    });

    describe('orphan sweeping', () => {
      it('removes old stored objects without a record, keeps records, young objects and foreign keys', async () => {
        const storage = t.app.get(FileStorage);
        const sweeper = t.app.get(OrphanSweeper);
        // A variant being made is stored before its record lists it, protected by the grace period only, and the
        // sweeps below take none: the variants that earlier tests' uploads and reads started are made first.
        await variantsSettled();
        const id = await createProduct();
        const kept = (await upload(`/files/product/${id}/cover`, [PNG, 'kept.png']).expect(201)).body;
        // And this cover's.
        await variantsSettled();
        await storage.put(`product/${id}/orphan-one`, Readable.from([Buffer.from('left by a crash')]));
        await storage.put('elsewhere/1/not-ours', Readable.from([Buffer.from('someone else')]));

        const young = await sweeper.sweep();
        expect(young.orphans).toEqual([]);

        const dry = await sweeper.sweep({ dryRun: true, graceMs: 0 });
        expect(dry.orphans).toEqual([`product/${id}/orphan-one`]);
        expect(await storage.exists(`product/${id}/orphan-one`)).toBe(true);

        const real = await sweeper.sweep({ graceMs: 0 });
        expect(real).toMatchObject({ orphans: [`product/${id}/orphan-one`], removed: 1, failed: 0 });
        expect(await storage.exists(`product/${id}/orphan-one`)).toBe(false);
        expect(await storage.exists(kept.path)).toBe(true);
        expect(await storage.exists('elsewhere/1/not-ours')).toBe(true);
        await storage.delete('elsewhere/1/not-ours');
        await api().get(`/files/${kept.id}`).expect(200);
      });
    });

    describe('errors are problem details and leave nothing behind', () => {
      let id: number;
      beforeAll(async () => {
        id = await createProduct('errors');
      });

      const expectNothingStored = async (before: string[]) => {
        expect(await storedFiles()).toEqual(before);
        const product = (await api().get(`/products/${id}`).expect(200)).body;
        expect(product.cover).toBeNull();
        expect(product.gallery).toEqual([]);
      };

      it('400 when the file part is missing', async () => {
        const res = await api().post(`/files/product/${id}/cover`).field('note', 'x');
        expectProblem(res, 400, 'file-missing');
      });

      it('400 for a part under another name', async () => {
        expectProblem(await api().post(`/files/product/${id}/cover`).attach('upload', PNG, 'a.png'), 400);
      });

      it('400 for malformed multipart', async () => {
        const before = await storedFiles();
        const res = await api()
          .post(`/files/product/${id}/cover`)
          .set('Content-Type', 'multipart/form-data; boundary=XYZ')
          .send('--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc');
        expectProblem(res, 400, 'malformed-multipart');
        await expectNothingStored(before);
      });

      it('415 for a body that is not multipart', async () => {
        expectProblem(await api().post(`/files/product/${id}/cover`).send({ file: 'x' }), 415, 'not-multipart');
      });

      it('400 when a single field receives two files, storing neither', async () => {
        const before = await storedFiles();
        const res = await upload(`/files/product/${id}/cover`, [PNG, 'a.png'], [PNG, 'b.png']);
        expectProblem(res, 400, 'too-many-files');
        await expectNothingStored(before);
      });

      it.each(['abc', '0', '-1', '1.5', '99999999999'])('400 for attachment id %s', async (bad) => {
        expectProblem(await upload(`/files/product/${bad}/cover`, [PNG, 'a.png']), 400, 'invalid-id');
      });

      it('404 for an unknown attachment type, unknown field, or missing entity', async () => {
        expectProblem(await upload(`/files/unicorn/${id}/cover`, [PNG, 'a.png']), 404, 'unknown-attachment-type');
        expectProblem(await upload(`/files/product/${id}/manual`, [PNG, 'a.png']), 404, 'unknown-file-field');
        expectProblem(await upload(`/files/product/999999/cover`, [PNG, 'a.png']), 404, 'entity-not-found');
      });

      it('413 for a file over MAX_FILE_SIZE, keeping no bytes and no record', async () => {
        const before = await storedFiles();
        const res = await upload(
          `/files/product/${id}/gallery`,
          [PNG, 'ok.png'],
          [Buffer.alloc(64 * 1024 + 1, 7), 'big.bin'],
        );
        expectProblem(res, 413, 'file-too-large');
        await expectNothingStored(before);
      });

      it('415 for a type the field does not accept, judged on the bytes, keeping nothing', async () => {
        const before = await storedFiles();
        const res = await api()
          .post(`/files/product/${id}/cover`)
          .attach('file', PDF, { filename: 'x.png', contentType: 'image/png' });
        expectProblem(res, 415, 'unsupported-media-type');
        const mixed = await upload(
          `/files/product/${id}/gallery`,
          [PNG, 'ok.png'],
          [Buffer.from('just text'), 'notes.txt'],
        );
        expectProblem(mixed, 415, 'unsupported-media-type');
        await expectNothingStored(before);
      });

      it('refuses HTML and SVG even in a field that accepts any type', async () => {
        const { id: article } = (await api().post('/articles').send({ title: 'markup' }).expect(201)).body;
        const html = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');
        const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
        expectProblem(
          await upload(`/files/article/${article}/attachments`, [html, 'a.txt']),
          415,
          'unsupported-media-type',
        );
        expectProblem(
          await upload(`/files/article/${article}/attachments`, [svg, 'b.png']),
          415,
          'unsupported-media-type',
        );
        await upload(`/files/article/${article}/attachments`, [Buffer.from('plain notes\n'), 'c.txt']).expect(201);
      });

      it('409 when a multi field is full, before and during the upload', async () => {
        const { id: article } = (await api().post('/articles').send({ title: 'full' }).expect(201)).body;
        const nine = Array.from({ length: 9 }, (_, i): [Buffer, string] => [PDF, `${i}.pdf`]);
        await upload(`/files/article/${article}/attachments`, ...nine).expect(201);
        const before = await storedFiles();
        expectProblem(
          await upload(`/files/article/${article}/attachments`, [PDF, 'a.pdf'], [PDF, 'b.pdf']),
          409,
          'field-full',
        );
        expect(await storedFiles()).toEqual(before);
        await upload(`/files/article/${article}/attachments`, [PDF, 'tenth.pdf']).expect(201);
        expectProblem(await upload(`/files/article/${article}/attachments`, [PDF, 'eleventh.pdf']), 409, 'field-full');
      });

      it('accepts a file of exactly MAX_FILE_SIZE', async () => {
        const { id: other } = (await api().post('/articles').send({ title: 'edge' }).expect(201)).body;
        const res = await upload(`/files/article/${other}/attachments`, [
          Buffer.alloc(64 * 1024, 7),
          'edge.bin',
        ]).expect(201);
        expect(res.body).toMatchObject({ size: 64 * 1024, mime_type: 'application/octet-stream' });
      });
    });

    it('deleting an entity removes its records and its stored bytes', async () => {
      const id = await createProduct();
      const cover = (await upload(`/files/product/${id}/cover`, [PNG, 'c.png']).expect(201)).body;
      const gallery = (await upload(`/files/product/${id}/gallery`, [PNG, 'a.png'], [PNG, 'b.png']).expect(201)).body;
      await api().delete(`/products/${id}`).expect(204);
      expectProblem(await api().get(`/products/${id}`), 404);
      const files = await storedFiles();
      for (const record of [cover, ...gallery]) expect(files).not.toContain(record.path);
      expect(
        await t.dataSource.getRepository(FileRecord).countBy({ attachmentType: 'product', attachmentId: id }),
      ).toBe(0);
    });
  });
}
