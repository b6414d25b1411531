import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { INestApplication } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { createBookshelf } from '../src/bookshelf.js';

/** The smallest valid PNG: 1x1 pixel. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d494441540899636060606000000005000187a14ed40000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

interface FileRecord {
  id: number;
  url: string;
  field: string;
  sort_order: number;
  original_name: string;
  mime_type: string;
  size: number;
}
interface Book {
  id: number;
  title: string;
  year: number | null;
  cover: FileRecord | null;
  samples: FileRecord[];
}

describe('the bookshelf, on @file-fields/nest installed from its tarball', () => {
  let dataDir: string;
  let app: INestApplication;
  let base: string;

  const call = (path: string, init: RequestInit & { key?: string | null } = {}) => {
    const { key = 'editor', ...rest } = init;
    const headers = new Headers(rest.headers);
    if (key) headers.set('authorization', `Bearer ${key}`);
    return fetch(new URL(path, base), { ...rest, headers });
  };
  const json = async <T>(response: Response, status: number): Promise<T> => {
    assert.equal(response.status, status, await response.clone().text());
    return (await response.json()) as T;
  };
  const send = (method: string, path: string, body: unknown) =>
    call(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const upload = (path: string, name: string, bytes: Buffer, type: string) => {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type }), name);
    return call(path, { method: 'POST', body: form });
  };

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bookshelf-'));
    app = await createBookshelf({
      dataDir,
      apiKeys: { editor: ['author:read', 'author:write', 'book:read', 'book:write'], reader: ['book:read'] },
      urlSigningKey: randomBytes(32),
    });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });
  after(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates its tables with the migration it ships: nothing differs from its entities', async () => {
    const dataSource = app.get<DataSource>(getDataSourceToken());
    assert.deepEqual((await dataSource.driver.createSchemaBuilder().log()).upQueries, []);
  });

  it('uploads to a single field and resolves it on the type’s routes', async () => {
    const author = await json<{ id: number; portrait: FileRecord | null }>(
      await send('POST', '/authors', { name: 'Ursula K. Le Guin' }),
      201,
    );
    assert.equal(author.portrait, null);
    const portrait = await json<FileRecord>(
      await upload(`/files/author/${author.id}/portrait`, 'ursula.png', PNG, 'image/png'),
      201,
    );
    assert.equal(portrait.mime_type, 'image/png');
    const read = await json<{ portrait: FileRecord }>(await call(`/authors/${author.id}`), 200);
    assert.deepEqual(read.portrait, portrait);
    // The field takes images only: a PDF is refused with problem details, and the portrait stays.
    const refused = await upload(`/files/author/${author.id}/portrait`, 'cv.pdf', PDF, 'application/pdf');
    assert.equal(refused.status, 415);
    assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.deepEqual(
      (await json<{ portrait: FileRecord }>(await call(`/authors/${author.id}`), 200)).portrait,
      portrait,
    );
  });

  it('keeps a multi field in upload order, reorders it, and deletes one file', async () => {
    const book = await json<Book>(await send('POST', '/books', { title: 'The Dispossessed', year: 1974 }), 201);
    assert.deepEqual(book.samples, []);
    const names = ['first.pdf', 'second.png', 'third.pdf'];
    const uploaded: FileRecord[] = [];
    for (const name of names) {
      const bytes = name.endsWith('.png') ? PNG : PDF;
      uploaded.push(await json<FileRecord>(await upload(`/files/book/${book.id}/samples`, name, bytes, 'x/y'), 201));
    }
    let read = await json<Book>(await call(`/books/${book.id}`), 200);
    assert.deepEqual(
      read.samples.map((file) => file.original_name),
      names,
    );

    const order = [uploaded[2].id, uploaded[0].id, uploaded[1].id];
    await json<FileRecord[]>(await send('PUT', `/files/book/${book.id}/samples/order`, { ids: order }), 200);
    read = await json<Book>(await call(`/books/${book.id}`), 200);
    assert.deepEqual(
      read.samples.map((file) => file.id),
      order,
    );

    assert.equal((await call(`/files/${uploaded[0].id}`, { method: 'DELETE' })).status, 204);
    read = await json<Book>(await call(`/books/${book.id}`), 200);
    assert.deepEqual(
      read.samples.map((file) => file.original_name),
      ['third.pdf', 'second.png'],
    );
  });

  it('serves a file at its signed URL without credentials, and refuses an altered one', async () => {
    const book = await json<Book>(await send('POST', '/books', { title: 'Always Coming Home' }), 201);
    const cover = await json<FileRecord>(
      await upload(`/files/book/${book.id}/cover`, 'cover.png', PNG, 'image/png'),
      201,
    );
    const { url } = (await json<Book>(await call(`/books/${book.id}`), 200)).cover!;
    const content = await call(url, { key: null });
    assert.equal(content.status, 200);
    assert.deepEqual(Buffer.from(await content.arrayBuffer()), PNG);
    assert.equal(content.headers.get('content-type'), cover.mime_type);
    const altered = new URL(url, base);
    altered.searchParams.set('signature', `${altered.searchParams.get('signature') ?? ''}x`);
    assert.ok([401, 403].includes((await call(altered.pathname + altered.search, { key: null })).status));
  });

  it('lists a page searched and sorted, and deletes a book with its files', async () => {
    const book = await json<Book>(await send('POST', '/books', { title: 'Lavinia', year: 2008 }), 201);
    const sample = await json<FileRecord>(await upload(`/files/book/${book.id}/samples`, 'a.pdf', PDF, 'x/y'), 201);
    const page = await json<{ items: Book[]; total: number }>(await call('/books?q=lavinia&sort=-title'), 200);
    assert.equal(page.total, 1);
    assert.equal(page.items[0].samples[0].id, sample.id);

    assert.equal((await call(`/books/${book.id}`, { method: 'DELETE' })).status, 204);
    assert.equal((await call(`/books/${book.id}`)).status, 404);
    assert.equal((await call(`/files/${sample.id}`)).status, 404);
  });

  it('answers 401 without a key, 403 without the permission, 400 for an invalid body', async () => {
    assert.equal((await call('/books', { key: null })).status, 401);
    assert.equal((await call('/books', { key: 'reader' })).status, 200);
    const refused = await call('/books', {
      key: 'reader',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x' }),
    });
    assert.equal(refused.status, 403);
    assert.equal((await call('/authors', { key: 'reader' })).status, 403);
    const invalid = await json<{ errors: Array<{ field: string }> }>(await send('POST', '/books', { year: -1 }), 400);
    assert.deepEqual(invalid.errors.map((error) => error.field).sort(), ['title', 'year']);
  });
});
