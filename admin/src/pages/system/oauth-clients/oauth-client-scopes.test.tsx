import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { permissionsInWords } from '../../../permission-words';
import { json, problem, renderPage, type Handler } from '../../../testing/render';
import { bodyOf, CATALOG, me, pageOf } from '../../../testing/system-fixtures';
import type { OAuthClient } from './oauth-clients-api';
import { OAuthClientsPage } from './oauth-clients-page';

const at = '2026-01-02T03:04:05.000Z';
const client = (overrides: Partial<OAuthClient> = {}): OAuthClient => ({
  client_id: 'app_shop',
  name: 'Shop front',
  redirect_uris: ['https://shop.example/callback'],
  public: false,
  scopes: ['product:read', 'product:write'],
  default_scopes: ['product:read'],
  created_by: 'user:1',
  created_at: at,
  updated_at: at,
  ...overrides,
});

/** A catalog editor who may manage applications: holds product:read|write, not roles nor webhooks. */
const EDITOR = ['oauth-client:read', 'oauth-client:write', 'product:read', 'product:write'];

function open(list: OAuthClient[], extra: Record<string, Handler> = {}, permissions = EDITOR) {
  return renderPage(<OAuthClientsPage />, {
    routes: {
      'GET /api/oauth/clients': () => json(pageOf(list)),
      'GET /api/me': () => json(me(permissions)),
      'GET /api/permissions': () => json(CATALOG),
      ...extra,
    },
  });
}

async function addDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'Add application' }));
  const dialog = screen.getByRole('dialog', { name: 'Add application' });
  await userEvent.type(within(dialog).getByLabelText('Name'), 'Shop front');
  await userEvent.type(within(dialog).getByLabelText('Redirect URIs'), 'https://shop.example/callback');
  return dialog;
}

describe('Permissions in words', () => {
  it('says read and write of one resource together, and `*` as everything', () => {
    expect(permissionsInWords(['product:write', 'audit:read', 'product:read', 'role:read'])).toBe(
      'read the audit log, see and change products, see roles',
    );
    expect(permissionsInWords(['oauth-client:write'])).toBe('change oauth clients');
    expect(permissionsInWords(['*', 'product:read'])).toBe('do everything');
    expect(permissionsInWords([])).toBe('nothing');
  });
});

describe('The scope ceiling of an application', () => {
  it('lists what each application may do in words, and its narrower default', async () => {
    open([client(), client({ client_id: 'app_all', name: 'Back office', scopes: ['*'], default_scopes: ['*'] })]);
    const shop = await screen.findByRole('row', { name: /Shop front/ });
    expect(within(shop).getByText('See and change products')).toBeTruthy();
    expect(within(shop).getByText('By default: see products')).toBeTruthy();
    const all = screen.getByRole('row', { name: /Back office/ });
    expect(within(all).getByText('Do everything')).toBeTruthy();
    expect(within(all).queryByText(/By default/)).toBeNull();
  });

  it('offers only the permissions the signed-in user holds, and sends the ceiling with its default', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = open([], {
      'POST /api/oauth/clients': async (request) => json(client(await bodyOf(request)), 201),
    });
    const dialog = await addDialog();
    const picker = within(dialog).getByRole('group', { name: 'Permissions' });
    await within(picker).findByRole('checkbox', { name: 'product:read' });
    expect(within(picker).queryByRole('checkbox', { name: 'role:read' })).toBeNull();
    expect(within(picker).queryByRole('checkbox', { name: /All permissions/ })).toBeNull();
    expect(within(picker).getByText(/an application cannot be allowed more than you may/)).toBeTruthy();

    await user.click(within(picker).getByRole('checkbox', { name: 'product:read' }));
    await user.click(within(picker).getByRole('checkbox', { name: 'product:write' }));
    const defaults = within(dialog).getByRole('group', { name: 'Asked for when it names none' });
    expect(
      within(defaults)
        .getAllByRole('checkbox')
        .map((box) => box.parentElement?.textContent),
    ).toEqual(['See products product:read', 'Change products product:write']);
    await user.click(within(defaults).getByRole('checkbox', { name: /product:read/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByLabelText('Client ID')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Shop front',
      redirect_uris: ['https://shop.example/callback'],
      public: false,
      scopes: ['product:read', 'product:write'],
      default_scopes: ['product:read'],
    });
  });

  it('asks for at least one permission before sending anything', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = open([]);
    const dialog = await addDialog();
    await within(dialog).findByRole('checkbox', { name: 'product:read' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('Choose at least one permission.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('drops a default taken out of the ceiling, and says a refusal of the service under the form', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = open([], {
      'POST /api/oauth/clients': () =>
        problem(403, 'Privilege escalation', 'You cannot allow an application a permission you do not hold.'),
    });
    const dialog = await addDialog();
    const picker = within(dialog).getByRole('group', { name: 'Permissions' });
    await user.click(await within(picker).findByRole('checkbox', { name: 'product:read' }));
    await user.click(within(picker).getByRole('checkbox', { name: 'product:write' }));
    const defaults = within(dialog).getByRole('group', { name: 'Asked for when it names none' });
    await user.click(within(defaults).getByRole('checkbox', { name: /product:write/ }));
    await user.click(within(picker).getByRole('checkbox', { name: 'product:write' }));
    expect(within(defaults).queryByRole('checkbox', { name: /product:write/ })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Privilege escalation: You cannot allow an application a permission you do not hold.',
    );
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({ scopes: ['product:read'] });
    expect(calls.find((call) => call.method === 'POST')?.body).not.toHaveProperty('default_scopes');
  });

  it('changes the ceiling of an application, sending only what changed', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = open([client()], {
      'PATCH /api/oauth/clients/:id': async (request) => json(client(await bodyOf(request))),
    });
    await user.click(
      within(await screen.findByRole('row', { name: /Shop front/ })).getByRole('button', { name: 'Edit' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit application' });
    const picker = await within(dialog).findByRole('group', { name: 'Permissions' });
    expect(within(picker).getByRole<HTMLInputElement>('checkbox', { name: 'product:write' }).checked).toBe(true);
    await user.click(within(picker).getByRole('checkbox', { name: 'product:write' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ scopes: ['product:read'] });
  });
});
