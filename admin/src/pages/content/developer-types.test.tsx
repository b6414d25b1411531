import { screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { AttachmentTypeInfo } from '../../content-types';
import { json, renderPage, type Handler } from '../../testing/render';
import { me } from '../../testing/system-fixtures';
import { ContentDetailPage, ContentListPage } from './content-pages';
import { apiDocumentRoute } from './entities/api-document.fixture';

/** A type a developer added as docs/file-fields.md shows: not in the catalog, its routes written by hand. */
const BROCHURE: AttachmentTypeInfo = {
  attachment_type: 'brochure',
  collection_path: '/brochures',
  fields: [
    {
      name: 'pdf',
      multi: false,
      accept: ['application/pdf'],
      refused: [],
      max_size: 1024,
      max_count: 1,
      max_files_per_request: 1,
      max_pixels: null,
      variants: [],
    },
  ],
};
const brochure = (id: number, title: string) => ({ id, title, pdf: null });

function open(path: string, pattern: string, page: ReactElement, routes: Record<string, Handler>) {
  return renderPage(page, {
    routes: {
      'GET /files/fields': () => json([BROCHURE]),
      'GET /api/me': () => json(me(['brochure:read'])),
      ...apiDocumentRoute,
      ...routes,
    },
    path,
    pattern,
  });
}
const list = (routes: Record<string, Handler>) =>
  open('/content/brochure', '/content/:type', <ContentListPage />, routes);

describe('A type a developer adds', () => {
  it('is listed when its list route answers an array, as one page', async () => {
    const all = Array.from({ length: 23 }, (_, index) => brochure(index + 1, `Brochure ${index + 1}`));
    list({ 'GET /brochures': () => json(all) });
    expect(await screen.findByRole('link', { name: 'Brochure 1' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Brochure 23' }).getAttribute('href')).toBe('/content/brochure/23');
    expect(screen.getAllByRole('row')).toHaveLength(24);
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    expect(pages.textContent).toContain('1–23 of 23');
    expect(within(pages).getByRole<HTMLButtonElement>('button', { name: 'Next' }).disabled).toBe(true);
  });

  it('says when an empty array is all there is', async () => {
    list({ 'GET /brochures': () => json([]) });
    expect(await screen.findByText('No brochures yet')).toBeTruthy();
  });

  it('names the shape it needs when its list route answers something else, instead of a blank page', async () => {
    list({ 'GET /brochures': () => json({ data: [brochure(1, 'Spring')], count: 1 }) });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'GET /brochures must answer a page { items, total, limit, offset } or an array of entities, but answered ' +
        'an object with data, count. See “A new entity type” in docs/file-fields.md.',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Brochures' })).toBeTruthy();
  });

  it('names the shape it needs when its read route answers something other than one object', async () => {
    open('/content/brochure/1', '/content/:type/:id', <ContentDetailPage />, {
      'GET /brochures/1': () => json([brochure(1, 'Spring')]),
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'GET /brochures/1 must answer the brochure as one JSON object.',
    );
    expect(screen.getByRole('link', { name: '← Brochures' })).toBeTruthy();
  });
});
