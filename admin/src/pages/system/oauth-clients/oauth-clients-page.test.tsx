import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { afterAnswer, json, problem, renderPage, type Handler } from '../../../testing/render';
import { bodyOf, CATALOG, me } from '../../../testing/system-fixtures';
import type { OAuthClient } from './oauth-clients-api';
import { OAuthClientsPage } from './oauth-clients-page';

const REFUSED_URI = 'redirect_uris[0] may use http only on 127.0.0.1, localhost or [::1]; use https';
const SECRET = 'ffcs_51BoCDHeN-ynp8dPl_AqOC78_nC-ub1MVBvSZDRQyvA';
const at = '2026-01-02T03:04:05.000Z';

const shop = (overrides: Partial<OAuthClient> = {}): OAuthClient => ({
  client_id: 'app_Xq3bV0m7hZ1kLw9pRt2sYa',
  name: 'Shop front',
  redirect_uris: ['https://shop.example/callback'],
  public: false,
  scopes: ['product:read'],
  default_scopes: ['product:read'],
  created_by: 'user:1',
  created_at: at,
  updated_at: at,
  ...overrides,
});

/** The fake service: a mutable list of applications and the signed-in account's permissions. */
function service(list: OAuthClient[], permissions: string[], extra: Record<string, Handler> = {}) {
  return {
    'GET /api/oauth/clients': () => json({ items: list, total: list.length, limit: 20, offset: 0 }),
    'GET /api/me': () => json(me(permissions)),
    'GET /api/permissions': () => json(CATALOG),
    ...extra,
  };
}
const WRITER = ['oauth-client:read', 'oauth-client:write', 'product:read', 'product:write'];
const row = (name: RegExp) => screen.findByRole('row', { name });

describe('OAuthClientsPage', () => {
  it('lists the applications with client ID, type and redirect URIs', async () => {
    renderPage(<OAuthClientsPage />, {
      routes: service([shop(), shop({ client_id: 'app_other', name: 'Mobile', public: true })], WRITER),
    });
    const front = await row(/Shop front/);
    expect(within(front).getByText('app_Xq3bV0m7hZ1kLw9pRt2sYa')).toBeTruthy();
    expect(within(front).getByText('Confidential')).toBeTruthy();
    // One text for readers, with a line-break opportunity after each slash (not inside `//`).
    const uri = within(front).getByText('https://shop.example/callback');
    expect(uri.innerHTML).toBe('https://<wbr>shop.example/<wbr>callback');
    expect(within(front).getByRole('button', { name: 'Rotate secret' })).toBeTruthy();
    const mobile = await row(/Mobile/);
    expect(within(mobile).getByText('Public')).toBeTruthy();
    expect(within(mobile).queryByRole('button', { name: 'Rotate secret' })).toBeNull();
  });

  it('adds a confidential application from URIs one per line, and shows its secret once with Copy', async () => {
    const list: OAuthClient[] = [];
    const user = userEvent.setup({ delay: null });
    const { calls } = renderPage(<OAuthClientsPage />, {
      routes: service(list, WRITER, {
        'POST /api/oauth/clients': async (request) => {
          const body = await bodyOf(request);
          const created = shop({ name: body.name as string, redirect_uris: body.redirect_uris as string[] });
          list.push(created);
          return json({ ...created, client_secret: SECRET }, 201);
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add application' }));
    const dialog = screen.getByRole('dialog', { name: 'Add application' });
    await user.type(within(dialog).getByLabelText('Name'), ' Shop front ');
    await user.type(
      within(dialog).getByLabelText('Redirect URIs'),
      'https://shop.example/callback\n\n  http://127.0.0.1:8080/cb  ',
    );
    expect(within(dialog).getByRole<HTMLInputElement>('radio', { name: /Confidential/ }).checked).toBe(true);
    await user.click(await within(dialog).findByRole('checkbox', { name: 'product:read' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    expect(await within(dialog).findByLabelText('Client secret')).toHaveProperty('value', SECRET);
    expect(within(dialog).getByLabelText('Client ID')).toHaveProperty('value', 'app_Xq3bV0m7hZ1kLw9pRt2sYa');
    expect(within(dialog).getByText(/will not be shown again/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Copy client secret' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Shop front',
      redirect_uris: ['https://shop.example/callback', 'http://127.0.0.1:8080/cb'],
      public: false,
      scopes: ['product:read'],
    });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await row(/Shop front/)).toBeTruthy();
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
  });

  it('adds a public application without a secret, and shows a refused redirect URI at its field', async () => {
    const user = userEvent.setup({ delay: null });
    let refuse = true;
    const { calls } = renderPage(<OAuthClientsPage />, {
      routes: service([], WRITER, {
        'POST /api/oauth/clients': async (request) => {
          if (refuse) {
            refuse = false;
            // As the service words it: the detail lists the violations the errors hold.
            return problem(400, 'Validation failed', `redirect_uris: ${REFUSED_URI}`, {
              errors: [{ field: 'redirect_uris', messages: [REFUSED_URI] }],
            });
          }
          return json(shop({ public: true, ...(await bodyOf(request)) }), 201);
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add application' }));
    const dialog = screen.getByRole('dialog', { name: 'Add application' });
    await user.type(within(dialog).getByLabelText('Name'), 'Mobile');
    await user.type(within(dialog).getByLabelText('Redirect URIs'), 'http://mobile.example/cb');
    await user.click(within(dialog).getByRole('radio', { name: /Public/ }));
    await user.click(await within(dialog).findByRole('checkbox', { name: 'product:read' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    // Once, at its field, naming the URI itself; under the form only a pointer to the field.
    const uris = within(dialog).getByLabelText('Redirect URIs');
    await waitFor(() => expect(uris.getAttribute('aria-invalid')).toBe('true'));
    const cause = 'http://mobile.example/cb may use http only on 127.0.0.1, localhost or [::1]; use https';
    expect(document.getElementById(uris.getAttribute('aria-describedby')!.split(' ')[1])?.textContent).toBe(cause);
    expect(document.activeElement).toBe(uris);
    expect(within(dialog).getByRole('alert').textContent).toBe('Not saved: correct the fields marked above.');
    expect(dialog.textContent).not.toContain('redirect_uris');
    expect(dialog.textContent?.split('may use http only').length).toBe(2);
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByLabelText('Client ID')).toBeTruthy();
    expect(within(dialog).queryByLabelText('Client secret')).toBeNull();
    expect(calls.filter((call) => call.method === 'POST').at(-1)?.body).toMatchObject({ public: true });
  });

  it('edits name and redirect URIs, sending only what changed', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderPage(<OAuthClientsPage />, {
      routes: service([shop()], WRITER, {
        'PATCH /api/oauth/clients/:id': async (request) => json(shop(await bodyOf(request))),
      }),
    });
    await user.click(within(await row(/Shop front/)).getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit application' });
    await user.type(within(dialog).getByLabelText('Redirect URIs'), '\nhttps://shop.example/other');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PATCH')).toEqual({
      method: 'PATCH',
      path: '/api/oauth/clients/app_Xq3bV0m7hZ1kLw9pRt2sYa',
      body: { redirect_uris: ['https://shop.example/callback', 'https://shop.example/other'] },
    });
  });

  it('rotates the secret only when asked, showing the new one once', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderPage(<OAuthClientsPage />, {
      routes: service([shop()], WRITER, {
        'POST /api/oauth/clients/:id/secret': () => json({ ...shop(), client_secret: SECRET }),
      }),
    });
    await user.click(within(await row(/Shop front/)).getByRole('button', { name: 'Rotate secret' }));
    const dialog = screen.getByRole('dialog', { name: 'Rotate secret' });
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));
    expect(await within(dialog).findByLabelText('New client secret')).toHaveProperty('value', SECRET);
    expect(calls.find((call) => call.method === 'POST')?.path).toBe(
      '/api/oauth/clients/app_Xq3bV0m7hZ1kLw9pRt2sYa/secret',
    );
  });

  it('deletes only after confirmation', async () => {
    const list = [shop()];
    const user = userEvent.setup({ delay: null });
    const { calls } = renderPage(<OAuthClientsPage />, {
      routes: service(list, WRITER, {
        'DELETE /api/oauth/clients/:id': () => {
          list.pop();
          return new Response(null, { status: 204 });
        },
      }),
    });
    await user.click(within(await row(/Shop front/)).getByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete application' })).getByRole('button', { name: 'Cancel' }),
    );
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(await row(/Shop front/)).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete application' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No applications yet')).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/oauth/clients/app_Xq3bV0m7hZ1kLw9pRt2sYa');
  });

  it('offers no change to an account that may only read applications', async () => {
    const { calls } = renderPage(<OAuthClientsPage />, { routes: service([shop()], ['oauth-client:read']) });
    const front = await row(/Shop front/);
    await afterAnswer(calls, '/api/me');
    expect(within(front).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add application' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });
});
