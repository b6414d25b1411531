import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AdminRoutes } from '../../app';
import { ShowLocation } from '../../testing/location';
import { json, problem, renderPage, type Handler } from '../../testing/render';
import { me } from '../../testing/system-fixtures';
import type { Grant } from './connected-apps-api';

const grant = (overrides: Partial<Grant> = {}): Grant => ({
  client_id: 'app_shop',
  client_name: 'Shop front',
  redirect_host: 'shop.example',
  scopes: ['product:read', 'product:write', 'audit:read'],
  granted_at: '2026-01-02T03:04:05.000Z',
  ...overrides,
});

/** The signed-in interface of a catalog editor at `path`, with `list` as their consents. */
function open(list: Grant[], path = '/account/applications', extra: Record<string, Handler> = {}) {
  return renderPage(
    <>
      <AdminRoutes />
      <ShowLocation />
    </>,
    {
      path,
      routes: {
        'GET /api/me': () => json(me(['product:read'])),
        'GET /files/fields': () => json([]),
        'GET /api/me/grants': () => json({ items: list, total: list.length, limit: 20, offset: 0 }),
        ...extra,
      },
    },
  );
}

describe('Connected applications', () => {
  it('is reached from the account menu', async () => {
    const user = userEvent.setup({ delay: null });
    open([grant()], '/');
    await user.click(await screen.findByRole('button', { name: 'Account: admin' }));
    await user.click(screen.getByRole('menuitem', { name: 'Connected applications' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Connected applications' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/account/applications');
  });

  it('lists each application with where it signs in and what it may do, in words', async () => {
    const { calls } = open([grant(), grant({ client_id: 'app_all', client_name: 'Reports', scopes: ['*'] })]);
    const shop = await screen.findByRole('row', { name: /Shop front/ });
    expect(within(shop).getByText('app_shop')).toBeTruthy();
    expect(within(shop).getByText('shop.example')).toBeTruthy();
    expect(within(shop).getByText('Read the audit log, see and change products')).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /Reports/ })).getByText('Do everything')).toBeTruthy();
    expect(calls.map((call) => call.path)).toContain('/api/me/grants?limit=20&offset=0');
  });

  it('revokes only after confirmation, and lists what is left', async () => {
    const user = userEvent.setup({ delay: null });
    const list = [grant(), grant({ client_id: 'app_other', client_name: 'Mobile' })];
    const { calls } = open(list, undefined, {
      'DELETE /api/me/grants/:id': (_request, { id }) => {
        list.splice(
          list.findIndex((entry) => entry.client_id === id),
          1,
        );
        return new Response(null, { status: 204 });
      },
    });
    const revokeShop = async () =>
      user.click(
        within(await screen.findByRole('row', { name: /Shop front/ })).getByRole('button', { name: 'Revoke' }),
      );
    await revokeShop();
    const dialog = () => screen.getByRole('dialog', { name: 'Revoke access' });
    expect(dialog().textContent).toContain('Revoke the access of Shop front?');
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await revokeShop();
    await user.click(within(dialog()).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /Shop front/ })).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('row', { name: /Mobile/ })).toBeTruthy();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      '/api/me/grants/app_shop',
    ]);
  });

  it('says a refused revocation in the dialog', async () => {
    const user = userEvent.setup({ delay: null });
    open([grant()], undefined, {
      'DELETE /api/me/grants/:id': () => problem(404, 'Not Found', 'You gave no consent to app_shop.'),
    });
    await user.click(
      within(await screen.findByRole('row', { name: /Shop front/ })).getByRole('button', { name: 'Revoke' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Revoke access' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Not Found: You gave no consent to app_shop.');
  });

  it('says what will be listed when there is nothing yet', async () => {
    open([]);
    expect(await screen.findByText('No connected applications')).toBeTruthy();
  });
});
