import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/problems';
import type { FileRecord, Uploader } from '../../api/uploads';
import { afterAnswer, json, problem, renderPage, type Handler } from '../../testing/render';
import { me } from '../../testing/system-fixtures';
import type { AttachmentTypeInfo, FileFieldRules } from '../../content-types';
import { apiDocumentRoute } from './entities/api-document.fixture';
import { ContentDetailPage, ContentListPage } from './content-pages';
import { fakeUploader } from './files/uploads/fake-uploader';

/** A field's rules, with the service's defaults for what a test does not set. */
const rules = (field: Pick<FileFieldRules, 'name' | 'multi'> & Partial<FileFieldRules>): FileFieldRules => ({
  accept: ['*/*'],
  refused: [],
  max_size: 1024,
  max_count: field.multi ? null : 1,
  max_files_per_request: 10,
  max_pixels: null,
  variants: [],
  ...field,
});

const TYPES: AttachmentTypeInfo[] = [
  {
    attachment_type: 'product',
    collection_path: '/products',
    fields: [
      rules({ name: 'cover', multi: false, accept: ['image/*'], max_size: 5 * 1024 * 1024, variants: ['thumb'] }),
      rules({
        name: 'gallery',
        multi: true,
        accept: ['image/*', 'application/pdf'],
        refused: ['image/svg+xml'],
        max_size: 10 * 1024 * 1024,
        max_count: 4,
        variants: ['thumb'],
      }),
    ],
  },
  {
    attachment_type: 'article',
    collection_path: null,
    fields: [rules({ name: 'attachments', multi: true })],
  },
];

let nextId = 100;
const record = (name: string, mime: string, extra: Partial<FileRecord> = {}): FileRecord => {
  const id = extra.id ?? nextId++;
  return {
    id,
    path: `product/7/${id}`,
    url: `http://admin.test/files/${id}/signed?expires=1&signature=s`,
    attachment_id: 7,
    attachment_type: 'product',
    field: 'gallery',
    sort_order: 0,
    original_name: name,
    mime_type: mime,
    size: 2048,
    width: mime.startsWith('image/') ? 1200 : null,
    height: mime.startsWith('image/') ? 800 : null,
    checksum_sha256: 'c',
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    ...extra,
  };
};
const withThumb = (file: FileRecord): FileRecord => ({
  ...file,
  variants: {
    thumb: { url: `${file.url}&variant=thumb`, width: 200, height: 200, size: 900, mime_type: 'image/webp' },
  },
});

const product = (files: { cover?: FileRecord | null; gallery?: FileRecord[] } = {}) => ({
  id: 7,
  name: 'Desk lamp',
  description: null,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-02T00:00:00Z',
  cover: files.cover ?? null,
  gallery: files.gallery ?? [],
});

const pngFile = (name: string, size = 100) => new File([new Uint8Array(size)], name, { type: 'image/png' });

function renderDetail(routes: Record<string, Handler>, uploader?: Uploader) {
  return renderPage(<ContentDetailPage />, {
    routes: {
      'GET /files/fields': () => json(TYPES),
      'GET /api/me': () => json(me(['product:read', 'product:write'])),
      ...apiDocumentRoute,
      ...routes,
    },
    path: '/content/product/7',
    pattern: '/content/:type/:id',
    uploader,
  });
}

const fileItem = (name: string) => screen.getByRole('listitem', { name });
const itemNames = (field: string) =>
  within(screen.getByRole('list', { name: `Files of ${field}` }))
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('data-file-id'));

describe('ContentListPage', () => {
  const renderList = (routes: Record<string, Handler>, path = '/content/product') =>
    renderPage(<ContentListPage />, {
      routes: { 'GET /files/fields': () => json(TYPES), ...apiDocumentRoute, ...routes },
      path,
      pattern: '/content/:type',
    });

  it('lists the entities with a link to each, its id and its files', async () => {
    const cover = withThumb(record('lamp.png', 'image/png'));
    const { calls } = renderList({
      'GET /products': () =>
        json({
          items: [
            product({ cover, gallery: [record('a.pdf', 'application/pdf')] }),
            { ...product(), id: 8, name: 'Chair' },
          ],
          total: 2,
          limit: 20,
          offset: 0,
        }),
    });
    const link = await screen.findByRole('link', { name: 'Desk lamp' });
    expect(link.getAttribute('href')).toBe('/content/product/7');
    const rows = screen.getAllByRole('row').slice(1);
    expect(within(rows[0]).getByText('2 files')).toBeTruthy();
    expect(rows[0].querySelector('img')?.getAttribute('src')).toBe(cover.variants!.thumb!.url);
    expect(within(rows[1]).getByText('No files')).toBeTruthy();
    expect(within(rows[1]).getByText('8')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Pages' }).textContent).toContain('1–2 of 2');
    expect(calls.map((call) => call.path)).toContain('/products?limit=20&offset=0');
  });

  it('pages through the list with limit and offset', async () => {
    const { calls } = renderList({
      'GET /products': (request) => {
        const offset = Number(new URL(request.url).searchParams.get('offset'));
        return json({
          items: [{ ...product(), id: offset + 1, name: `Item ${offset + 1}` }],
          total: 45,
          limit: 20,
          offset,
        });
      },
    });
    await screen.findByRole('link', { name: 'Item 1' });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Previous' }).disabled).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('link', { name: 'Item 21' });
    expect(screen.getByRole('navigation', { name: 'Pages' }).textContent).toContain('21–40 of 45');
    expect(calls.map((call) => call.path)).toContain('/products?limit=20&offset=20');
  });

  it('says how entities come to be when there are none', async () => {
    const { calls } = renderList({ 'GET /products': () => json({ items: [], total: 0, limit: 20, offset: 0 }) });
    expect(await screen.findByText('No products yet')).toBeTruthy();
    await afterAnswer(calls, '/api/me');
    expect(screen.getByText('Someone whose role may change them will add the first.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add product' })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('lists a type without a collection path at its plural, under a Title column for titled entities', async () => {
    const { calls } = renderList(
      {
        'GET /articles': () =>
          json({ items: [{ id: 3, title: 'Release notes', attachments: [] }], total: 1, limit: 20, offset: 0 }),
      },
      '/content/article',
    );
    expect(await screen.findByRole('link', { name: 'Release notes' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Title' })).toBeTruthy();
    expect(calls.some((call) => call.path.startsWith('/articles?'))).toBe(true);
  });

  it('shows the problem when the list is refused', async () => {
    renderList({ 'GET /products': () => problem(403, 'Forbidden', 'Needs product:read') });
    expect((await screen.findByRole('alert')).textContent).toBe('Forbidden: Needs product:read');
  });

  it('says so for a type that has no file fields or may not be read', async () => {
    renderList({}, '/content/invoice');
    expect(await screen.findByText('No content type named “invoice”')).toBeTruthy();
  });
});

describe('ContentDetailPage', () => {
  it('shows each file field with its rules, images as thumbnails and other files as name, type and size', async () => {
    const cover = withThumb(record('lamp.png', 'image/png', { field: 'cover' }));
    const plain = record('plain.gif', 'image/gif');
    const pdf = record('manual.pdf', 'application/pdf', { size: 3 * 1024 * 1024 });
    renderDetail({ 'GET /products/7': () => json(product({ cover, gallery: [plain, pdf] })) });

    expect(await screen.findByRole('heading', { name: 'Desk lamp', level: 1 })).toBeTruthy();
    const coverSection = screen.getByRole('region', { name: 'Cover image' });
    expect(within(coverSection).getByText('5.0 MiB per file')).toBeTruthy();
    expect(within(coverSection).getByText('One file; an upload replaces it')).toBeTruthy();
    expect(within(fileItem('lamp.png')).getByRole('img').getAttribute('src')).toBe(cover.variants!.thumb!.url);
    expect(within(fileItem('plain.gif')).getByRole('img').getAttribute('src')).toBe(plain.url);

    const gallery = screen.getByRole('region', { name: 'Gallery' });
    expect(within(gallery).getByText('image/*, application/pdf')).toBeTruthy();
    expect(within(gallery).getByText('Up to 4 files')).toBeTruthy();
    const manual = fileItem('manual.pdf');
    expect(manual.textContent).toContain('application/pdf · 3.0 MiB');
    expect(within(manual).getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(pdf.url);
    expect(within(manual).queryByRole('img')).toBeNull();
    expect(screen.getByRole('region', { name: 'Upload to Gallery' }).getAttribute('data-testid')).toBe(
      'dropzone-gallery',
    );
  });

  it('queues picked files with a progress bar each, then refetches the entity as each completes', async () => {
    const { uploader, queue } = fakeUploader();
    let gallery: FileRecord[] = [];
    const { calls } = renderDetail({ 'GET /products/7': () => json(product({ gallery })) }, uploader);
    const input = await screen.findByLabelText('Choose files for Gallery');

    await userEvent.upload(input, [pngFile('one.png'), pngFile('two.png')]);
    const uploads = queue('gallery');
    expect(uploads.target).toEqual({ attachmentType: 'product', attachmentId: 7, fieldName: 'gallery' });
    expect(uploads.added.map(({ file }) => file.name)).toEqual(['one.png', 'two.png']);
    act(() => uploads.listener.progress(uploads.idOf('one.png'), 50, 100));
    expect(screen.getByRole<HTMLProgressElement>('progressbar', { name: 'Uploading one.png' }).value).toBe(0.5);
    expect(screen.getByRole<HTMLProgressElement>('progressbar', { name: 'Uploading two.png' }).value).toBe(0);

    gallery = [record('one.png', 'image/png', { id: 1 })];
    act(() => uploads.listener.completed(uploads.idOf('one.png')));
    await screen.findByRole('listitem', { name: 'one.png' });
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Uploading one.png' })).toBeNull());

    gallery = [...gallery, record('two.png', 'image/png', { id: 2 })];
    act(() => uploads.listener.completed(uploads.idOf('two.png')));
    await screen.findByRole('listitem', { name: 'two.png' });
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    expect(calls.filter((call) => call.path === '/products/7')).toHaveLength(3);
    expect(uploader).toHaveBeenCalledTimes(1);
  });

  it('uploads files dropped onto the drop zone', async () => {
    const { uploader, queue } = fakeUploader();
    renderDetail({ 'GET /products/7': () => json(product()) }, uploader);
    const zone = await screen.findByTestId('dropzone-gallery');
    const files = [pngFile('a.png'), pngFile('b.png')];

    fireEvent.dragEnter(zone, { dataTransfer: { types: ['Files'], files } });
    expect(zone.className).toContain('over');
    fireEvent.drop(zone, { dataTransfer: { types: ['Files'], files } });

    expect(zone.className).not.toContain('over');
    expect(await screen.findByRole('progressbar', { name: 'Uploading a.png' })).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Uploading b.png' })).toBeTruthy();
    expect(queue('gallery').added.map(({ file }) => file.name)).toEqual(['a.png', 'b.png']);
  });

  it('enforces type and size before uploading, and says why', async () => {
    const { uploader, queues } = fakeUploader();
    renderDetail({ 'GET /products/7': () => json(product()) }, uploader);
    const labels: Record<string, string> = { cover: 'Cover image', gallery: 'Gallery' };
    const drop = async (field: string, ...files: File[]) => {
      fireEvent.drop(await screen.findByTestId(`dropzone-${field}`), { dataTransfer: { files } });
      return within(screen.getByRole('region', { name: labels[field] }))
        .getAllByRole('alert')
        .map((alert) => alert.textContent);
    };
    const added = () => queues.flatMap((queue) => queue.added.map(({ file }) => file.name));

    expect(await drop('gallery', new File(['x'], 'notes.txt', { type: 'text/plain' }), pngFile('ok.png'))).toEqual([
      'notes.txt: Gallery does not accept text/plain files (accepted: image/*, application/pdf).',
    ]);
    await waitFor(() => expect(added()).toEqual(['ok.png']));

    expect(await drop('gallery', new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }))).toEqual([
      'logo.svg: Gallery does not accept image/svg+xml files (accepted: image/*, application/pdf).',
    ]);
    expect(await drop('cover', pngFile('huge.png', 6 * 1024 * 1024))).toEqual([
      'huge.png: 6.0 MiB is more than Cover image accepts (5.0 MiB per file).',
    ]);
    expect(await drop('cover', pngFile('a.png'), pngFile('b.png'))).toEqual([
      'Cover image holds one file: choose just one.',
    ]);
    expect(added()).toEqual(['ok.png']);
  });

  it('refuses more files than a multi field has room for, uploads under way included', async () => {
    const { uploader, queue } = fakeUploader();
    const held = [1, 2].map((id) => record(`${id}.png`, 'image/png', { id }));
    renderDetail({ 'GET /products/7': () => json(product({ gallery: held })) }, uploader);
    const zone = await screen.findByTestId('dropzone-gallery');
    fireEvent.drop(zone, { dataTransfer: { files: [pngFile('w.png')] } });
    await screen.findByRole('progressbar', { name: 'Uploading w.png' });
    fireEvent.drop(zone, { dataTransfer: { files: [pngFile('x.png'), pngFile('y.png')] } });
    expect(screen.getByRole('alert').textContent).toBe(
      'Gallery holds at most 4 files: only 1 more could be added (not uploaded: y.png).',
    );
    await waitFor(() => expect(queue('gallery').added.map(({ file }) => file.name)).toEqual(['w.png', 'x.png']));
  });

  it("shows the service's problem at the file it refused, which can then be dismissed", async () => {
    const { uploader, queue } = fakeUploader();
    renderDetail({ 'GET /products/7': () => json(product()) }, uploader);
    await userEvent.upload(await screen.findByLabelText('Choose files for Cover image'), pngFile('fake.png'));
    await screen.findByRole('progressbar', { name: 'Uploading fake.png' });
    const uploads = queue('cover');
    const refusal = { title: 'Unsupported Media Type', detail: 'The bytes are not an image', status: 415 };
    act(() => uploads.listener.failed(uploads.idOf('fake.png'), new ApiError(415, refusal)));

    const row = within(screen.getByRole('list', { name: 'Uploads to Cover image' })).getByRole('listitem');
    expect(within(row).getByRole('alert').textContent).toBe(
      'fake.png was not uploaded. Unsupported Media Type: The bytes are not an image',
    );
    // A refusal is not worth another try.
    expect(within(row).queryByRole('button', { name: 'Retry fake.png' })).toBeNull();
    expect(within(row).queryByRole('progressbar')).toBeNull();
    await userEvent.click(within(row).getByRole('button', { name: 'Dismiss fake.png' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Uploads to Cover image' })).toBeNull());
    expect(uploads.asked).toEqual([`cancel ${uploads.idOf('fake.png')}`]);
  });

  it('replaces the file of a single field with the one uploaded', async () => {
    const { uploader, queue } = fakeUploader();
    let cover = record('old.png', 'image/png', { field: 'cover', id: 5 });
    renderDetail({ 'GET /products/7': () => json(product({ cover })) }, uploader);
    await screen.findByRole('listitem', { name: 'old.png' });
    await userEvent.upload(screen.getByLabelText('Choose files for Cover image'), pngFile('new.png'));
    await screen.findByRole('progressbar', { name: 'Uploading new.png' });
    cover = { ...cover, original_name: 'new.png' };
    act(() => queue('cover').listener.completed(queue('cover').idOf('new.png')));
    expect(await screen.findByRole('listitem', { name: 'new.png' })).toBeTruthy();
    expect(screen.queryByRole('listitem', { name: 'old.png' })).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('Choose files for Cover image').multiple).toBe(false);
  });

  it('moves a file down with its button: at once, through the reorder endpoint, keeping the focus', async () => {
    let gallery = [1, 2, 3].map((id) => record(`${id}.png`, 'image/png', { id }));
    let answer!: () => void;
    const { calls } = renderDetail({
      'GET /products/7': () => json(product({ gallery })),
      'PUT /files/product/7/gallery/order': async (request) => {
        const { ids } = (await request.json()) as { ids: number[] };
        await new Promise<void>((resolve) => (answer = resolve));
        gallery = ids.map((id) => gallery.find((file) => file.id === id)!);
        return json(gallery);
      },
    });
    await screen.findByRole('listitem', { name: '1.png' });
    expect(within(fileItem('1.png')).getByRole<HTMLButtonElement>('button', { name: 'Move up' }).disabled).toBe(true);

    await userEvent.click(within(fileItem('1.png')).getByRole('button', { name: 'Move down' }));
    await waitFor(() => expect(itemNames('Gallery')).toEqual(['2', '1', '3']));
    expect(document.activeElement).toBe(within(fileItem('1.png')).getByRole('button', { name: 'Move down' }));
    expect(screen.getByText('1.png moved to position 2 of 3.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ ids: [2, 1, 3] });

    act(() => answer());
    await waitFor(() => expect(calls.filter((call) => call.path === '/products/7')).toHaveLength(2));
    expect(itemNames('Gallery')).toEqual(['2', '1', '3']);

    // At the top "Move up" is disabled: the focus goes to "Move down".
    await userEvent.click(within(fileItem('1.png')).getByRole('button', { name: 'Move up' }));
    await waitFor(() => expect(itemNames('Gallery')).toEqual(['1', '2', '3']));
    expect(document.activeElement).toBe(within(fileItem('1.png')).getByRole('button', { name: 'Move down' }));
    act(() => answer());
  });

  it('puts the order back at once and says why when the service refuses it', async () => {
    const gallery = [1, 2].map((id) => record(`${id}.png`, 'image/png', { id }));
    let reads = 0;
    renderDetail({
      // Only the first read answers: the order comes back without waiting for the refetch.
      'GET /products/7': () => (++reads === 1 ? json(product({ gallery })) : new Promise<Response>(() => {})),
      'PUT /files/product/7/gallery/order': () => problem(409, 'Conflict', 'The field changed meanwhile'),
    });
    await screen.findByRole('listitem', { name: '2.png' });
    await userEvent.click(within(fileItem('2.png')).getByRole('button', { name: 'Move up' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The new order was not saved. Conflict: The field changed meanwhile',
    );
    expect(itemNames('Gallery')).toEqual(['1', '2']);
  });

  it('reorders with the keyboard through the drag handle', async () => {
    const gallery = [1, 2, 3].map((id) => record(`${id}.png`, 'image/png', { id }));
    const { calls } = renderDetail({
      'GET /products/7': () => json(product({ gallery })),
      'PUT /files/product/7/gallery/order': () => json(gallery),
    });
    await screen.findByRole('listitem', { name: '1.png' });
    stackItemsVertically();

    const handle = within(fileItem('1.png')).getByRole('button', { name: 'Reorder 1.png' });
    handle.focus();
    fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    fireEvent.keyDown(document.activeElement ?? handle, { code: 'ArrowDown', key: 'ArrowDown' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    fireEvent.keyDown(document.activeElement ?? handle, { code: 'Space', key: ' ' });

    await waitFor(() => expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ ids: [2, 1, 3] }));
  });

  it('deletes a file after confirmation and refetches the entity', async () => {
    let gallery = [1, 2].map((id) => record(`${id}.png`, 'image/png', { id }));
    const { calls } = renderDetail({
      'GET /products/7': () => json(product({ gallery })),
      'DELETE /files/:id': (_request, { id }) => {
        gallery = gallery.filter((file) => file.id !== Number(id));
        return new Response(null, { status: 204 });
      },
    });
    await screen.findByRole('listitem', { name: '1.png' });
    await userEvent.click(within(fileItem('1.png')).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 1.png?' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: '1.png' })).toBeNull());
    expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/files/1');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps the file and shows the problem when the delete is refused', async () => {
    renderDetail({
      'GET /products/7': () => json(product({ gallery: [record('1.png', 'image/png', { id: 1 })] })),
      'DELETE /files/:id': () => problem(403, 'Forbidden', 'Needs product:write'),
    });
    await userEvent.click(
      within(await screen.findByRole('listitem', { name: '1.png' })).getByRole('button', { name: 'Delete' }),
    );
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Forbidden: Needs product:write');
    expect(fileItem('1.png')).toBeTruthy();
  });

  it('shows the problem when the entity cannot be read', async () => {
    renderDetail({ 'GET /products/7': () => problem(404, 'Not Found', 'No product 7') });
    expect((await screen.findByRole('alert')).textContent).toBe('Not Found: No product 7');
  });

  it('shows the files but no upload, reordering or delete without the type’s write permission', async () => {
    const gallery = [record('1.png', 'image/png', { id: 1 }), record('2.png', 'image/png', { id: 2 })];
    const { calls } = renderDetail({
      'GET /api/me': () => json(me(['product:read'])),
      'GET /products/7': () => json(product({ gallery })),
    });
    expect(await screen.findByRole('listitem', { name: '2.png' })).toBeTruthy();
    await afterAnswer(calls, '/api/me');
    expect(itemNames('Gallery')).toEqual(['1', '2']);
    expect(screen.queryByTestId('dropzone-gallery')).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete|Move|Reorder/ })).toBeNull();
  });
});

/** jsdom lays nothing out: give each file item a place, one under the other, for dnd-kit to measure. */
function stackItemsVertically() {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const item = this.closest('li[data-file-id]');
    const index = item ? Array.from(item.parentElement!.children).indexOf(item) : 0;
    const top = index * 80;
    return { x: 0, y: top, top, left: 0, right: 300, bottom: top + 70, width: 300, height: 70, toJSON: () => ({}) };
  });
}
