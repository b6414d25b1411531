import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AttachmentTypeInfo, FileFieldRules } from '../../../content-types';
import { ShowLocation } from '../../../testing/location';
import { afterAnswer, json, problem, renderPage, type Handler } from '../../../testing/render';
import { me } from '../../../testing/system-fixtures';
import { ContentDetailPage, ContentListPage } from '../content-pages';
import { apiDocumentRoute } from './api-document.fixture';

const field = (name: string, multi: boolean): FileFieldRules => ({
  name,
  multi,
  accept: ['image/*'],
  refused: [],
  max_size: 1024,
  max_count: multi ? null : 1,
  max_files_per_request: 10,
  max_pixels: null,
  variants: [],
});
const TYPES: AttachmentTypeInfo[] = [
  { attachment_type: 'product', collection_path: '/products', fields: [field('cover', false), field('gallery', true)] },
];
const lamp = {
  id: 7,
  name: 'Desk lamp',
  description: 'Bright',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-02T00:00:00Z',
  cover: null,
  gallery: [],
};
/** The service's 400 for a body class-validator refused (ValidationFailedError). */
const invalid = (...errors: Array<{ field: string; messages: string[] }>) =>
  problem(400, 'Validation failed', errors.map((e) => `${e.field}: ${e.messages.join(', ')}`).join('; '), { errors });

function render(
  page: 'list' | 'detail',
  routes: Record<string, Handler>,
  permissions = ['product:read', 'product:write'],
) {
  return renderPage(
    <>
      {page === 'list' ? <ContentListPage /> : <ContentDetailPage />}
      <ShowLocation />
    </>,
    {
      routes: {
        'GET /files/fields': () => json(TYPES),
        'GET /api/me': () => json(me(permissions)),
        ...apiDocumentRoute,
        ...routes,
      },
      path: page === 'list' ? '/content/product' : '/content/product/7',
      pattern: page === 'list' ? '/content/:type/*' : '/content/:type/:id?',
    },
  );
}
const location = () => screen.getByTestId('location').textContent;
/** The error shown under a field, tied to it by aria-describedby. */
const errorOf = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id))
    .find((element) => element?.className === 'field-error')?.textContent;

describe('Creating, editing and deleting entities', () => {
  it('creates a product: the service’s field errors at their fields, then the new product’s page', async () => {
    const { calls } = render('list', {
      'GET /products': () => json({ items: [lamp], total: 1, limit: 20, offset: 0 }),
      'POST /products': async (request) => {
        const body = (await request.json()) as { name?: string; description?: string };
        if (!body.name) return invalid({ field: 'name', messages: ['name is required'] });
        if (body.name.length < 3) return invalid({ field: 'name', messages: ['name is too short'] });
        return json({ ...lamp, id: 9, ...body }, 201);
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add product' }));
    const dialog = screen.getByRole('dialog', { name: 'Add product' });
    const name = within(dialog).getByLabelText('Name');
    expect(within(dialog).getByText('What the product is called. Up to 200 characters.')).toBeTruthy();
    expect(within(dialog).getByLabelText('Description').tagName).toBe('TEXTAREA');
    expect(name.getAttribute('maxlength')).toBe('200');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(errorOf(name)).toBe('Name is required'));
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);
    expect(within(dialog).getByRole('alert').textContent).toBe('Not saved: correct the fields marked above.');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({});

    await userEvent.type(name, 'Ch');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(errorOf(name)).toBe('Name is too short'));

    await userEvent.type(name, 'air');
    await userEvent.type(within(dialog).getByLabelText('Description'), 'Oak');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(location()).toBe('/content/product/9'));
    expect(calls.filter((call) => call.method === 'POST').at(-1)?.body).toEqual({ name: 'Chair', description: 'Oak' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('edits a product: only what changed is sent, an emptied description as null', async () => {
    let product = { ...lamp };
    const { calls } = render('detail', {
      'GET /products/7': () => json(product),
      'PATCH /products/7': async (request) => {
        const body = (await request.json()) as Partial<typeof lamp>;
        if (body.name === '') return invalid({ field: 'name', messages: ['name should not be empty'] });
        product = { ...product, ...body };
        return json(product);
      },
    });
    const details = await screen.findByRole('region', { name: 'Details' });
    const name = within(details).getByLabelText<HTMLInputElement>('Name');
    const save = within(details).getByRole<HTMLButtonElement>('button', { name: 'Save' });
    expect(name.value).toBe('Desk lamp');
    expect(save.disabled).toBe(true);

    await userEvent.clear(name);
    await userEvent.click(save);
    await waitFor(() => expect(errorOf(name)).toBe('Name should not be empty'));

    await userEvent.type(name, 'Floor lamp');
    await userEvent.clear(within(details).getByLabelText('Description'));
    await userEvent.click(save);
    await waitFor(() => expect(within(details).getByRole('status').textContent).toBe('Saved Floor lamp.'));
    expect(calls.filter((call) => call.method === 'PATCH').at(-1)?.body).toEqual({
      name: 'Floor lamp',
      description: null,
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Floor lamp' })).toBeTruthy();
    expect(errorOf(name)).toBeUndefined();
  });

  it('deletes a product after confirmation and goes back to the list', async () => {
    const { calls } = render('detail', {
      'GET /products/7': () => json(lamp),
      'DELETE /products/7': () => new Response(null, { status: 204 }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete product' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Desk lamp?' });
    expect(dialog.textContent).toContain('all its files are removed for good');
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(location()).toBe('/content/product'));
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual(['/products/7']);
  });

  it('labels fields with the titles and descriptions of the OpenAPI document, and offers no change without write', async () => {
    const { calls } = render('detail', { 'GET /products/7': () => json(lamp) }, ['product:read']);
    const cover = await screen.findByRole('region', { name: 'Cover image' });
    expect(within(cover).getByText('The picture that shows the product in lists.')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Gallery' })).toBeTruthy();
    await afterAnswer(calls, '/api/me');
    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).getByText('Name').nextElementSibling?.textContent).toBe('Desk lamp');
    expect(within(details).getByText('Description').nextElementSibling?.textContent).toBe('Bright');
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /Delete|Save|Add/ })).toBeNull();
  });

  it('falls back to property names in words when the document cannot be read', async () => {
    render('detail', {
      'GET /products/7': () => json(lamp),
      'GET /api/docs-json': () => problem(503, 'Service Unavailable', 'Starting'),
    });
    expect(await screen.findByRole('region', { name: 'Cover' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Gallery' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('The service’s API description has no form for this type.');
  });
});
