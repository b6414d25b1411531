import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../api/client';
import { afterAnswer, json, problem, renderPage, type Handler } from '../../../testing/render';
import { bodyOf, integration, me, ROLES, pageOf } from '../../../testing/system-fixtures';
import { IntegrationsPage } from './integrations-page';

type Integration = Schemas['Integration'];
const SECRET = 'ffsk_51BoCDHeN-ynp8dPl_AqOC78_nC-ub1MVBvSZDRQyvA';

/** The fake service: a mutable list of integrations, the roles and the signed-in account. */
function service(list: Integration[], extra: Record<string, Handler> = {}) {
  return {
    'GET /api/integrations': () => json(pageOf(list)),
    'GET /api/roles': () => json(pageOf(ROLES)),
    'GET /api/me': () =>
      json(me(['integration:read', 'integration:write', 'product:read', 'webhook:read', 'webhook:write'])),
    ...extra,
  };
}

const row = (label: RegExp) => screen.findByRole('row', { name: label });

describe('IntegrationsPage', () => {
  it('lists the integrations with their access key, role, status and last use', async () => {
    renderPage(<IntegrationsPage />, {
      routes: service([
        integration(),
        integration({ id: 2, label: 'Shop', active: false, last_used_at: '2026-03-01T10:00:00Z' }),
      ]),
    });
    const erp = await row(/ERP/);
    for (const header of ['Label', 'Access key ID', 'Role', 'Status', 'Last used']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();
    }
    expect(within(erp).getByText('FFIAQ3J5K7M2N4P6R7T2V4X6')).toBeTruthy();
    expect(within(erp).getByText('catalog-reader')).toBeTruthy();
    expect(within(erp).getByText('Active')).toBeTruthy();
    expect(within(erp).getByText('Never')).toBeTruthy();
    expect(within(erp).getByRole('button', { name: 'Deactivate' })).toBeTruthy();
    const shop = await row(/Shop/);
    expect(within(shop).getByText('Inactive')).toBeTruthy();
    expect(within(shop).getByRole('button', { name: 'Activate' })).toBeTruthy();
    expect(within(shop).queryByText('Never')).toBeNull();
  });

  it('says what to do when there is none', async () => {
    renderPage(<IntegrationsPage />, { routes: service([]) });
    expect(await screen.findByText('No integrations yet')).toBeTruthy();
    expect(screen.getByText(/Choose “Add integration”/)).toBeTruthy();
  });

  it('adds an integration and shows its access key ID and secret exactly once', async () => {
    const list: Integration[] = [];
    const user = userEvent.setup({ delay: null });
    const { calls } = renderPage(<IntegrationsPage />, {
      routes: service(list, {
        'POST /api/integrations': async (request) => {
          const body = await bodyOf(request);
          const created = integration({ label: body.label as string, role: body.role as string });
          list.push(created);
          return json({ ...created, secret_access_key: SECRET }, 201);
        },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add integration' }));
    const dialog = screen.getByRole('dialog', { name: 'Add integration' });
    await user.type(within(dialog).getByLabelText('Label'), '  ERP ');
    const roleSelect = within(dialog).getByLabelText('Role');
    await waitFor(() => expect(within(roleSelect).getByRole('option', { name: 'catalog-reader' })).toBeTruthy());
    // The signed-in user lacks '*': the admin role is not theirs to give.
    expect(within(roleSelect).getByRole<HTMLOptionElement>('option', { name: /^admin/ }).disabled).toBe(true);
    await user.selectOptions(roleSelect, 'catalog-reader');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await within(dialog).findByLabelText('Secret access key')).toHaveProperty('value', SECRET);
    expect(within(dialog).getByLabelText('Access key ID')).toHaveProperty('value', 'FFIAQ3J5K7M2N4P6R7T2V4X6');
    expect(within(dialog).getByText(/will not be shown again/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Copy secret access key' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ label: 'ERP', role: 'catalog-reader' });

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await row(/ERP/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
  });

  it('shows why the service refused to create one', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage(<IntegrationsPage />, {
      routes: service([], {
        'POST /api/integrations': () =>
          problem(403, 'Permissions not held', 'To give an integration the role "admin" you must hold *.'),
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add integration' }));
    const dialog = screen.getByRole('dialog', { name: 'Add integration' });
    await user.type(within(dialog).getByLabelText('Label'), 'ERP');
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'catalog-reader' })).toBeTruthy());
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'catalog-reader');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Permissions not held: To give an integration the role "admin" you must hold *.',
    );
    expect(within(dialog).queryByLabelText('Secret access key')).toBeNull();
  });

  it('edits the label and role, sending only what changed', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderPage(<IntegrationsPage />, {
      routes: service([integration()], {
        'PATCH /api/integrations/:id': async (request) => json(integration(await bodyOf(request))),
      }),
    });
    await user.click(within(await row(/ERP/)).getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit integration' });
    const label = within(dialog).getByLabelText('Label');
    await user.clear(label);
    await user.type(label, 'ERP sync');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({
      path: '/api/integrations/1',
      body: { label: 'ERP sync' },
    });
  });

  it('deactivates and activates', async () => {
    const list = [integration()];
    const user = userEvent.setup({ delay: null });
    const { calls } = renderPage(<IntegrationsPage />, {
      routes: service(list, {
        'PATCH /api/integrations/:id': async (request) => {
          list[0] = integration({ active: (await bodyOf(request)).active as boolean });
          return json(list[0]);
        },
      }),
    });
    await user.click(within(await row(/ERP/)).getByRole('button', { name: 'Deactivate' }));
    await user.click(await within(await row(/ERP/)).findByRole('button', { name: 'Activate' }));
    await within(await row(/ERP/)).findByRole('button', { name: 'Deactivate' });
    expect(calls.filter((call) => call.method === 'PATCH').map((call) => call.body)).toEqual([
      { active: false },
      { active: true },
    ]);
  });

  it('rotates the secret: the new one once, and until when the old one works', async () => {
    const until = '2026-05-01T12:00:00Z';
    const rotated = integration({ previous_secret_active: true, previous_secret_expires_at: until });
    const user = userEvent.setup({ delay: null });
    const { calls } = renderPage(<IntegrationsPage />, {
      routes: service([integration()], {
        'POST /api/integrations/:id/rotate-secret': () => json({ ...rotated, secret_access_key: SECRET }),
        'DELETE /api/integrations/:id/previous-secret': () => json(integration()),
      }),
    });
    await user.click(within(await row(/ERP/)).getByRole('button', { name: 'Rotate secret' }));
    const dialog = screen.getByRole('dialog', { name: 'Rotate secret' });
    expect(calls.some((call) => call.path.endsWith('/rotate-secret'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));
    expect(await within(dialog).findByLabelText('New secret access key')).toHaveProperty('value', SECRET);
    expect(within(dialog).getByText(/will not be shown again/)).toBeTruthy();
    expect(
      within(dialog).getByText(`The previous secret keeps working until ${new Date(until).toLocaleString()}.`),
    ).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'End previous secret now' }));
    expect(await within(dialog).findByText('The previous secret no longer works.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/integrations/1/previous-secret');
  });

  it('deletes only after confirmation', async () => {
    const list = [integration()];
    const user = userEvent.setup({ delay: null });
    const { calls } = renderPage(<IntegrationsPage />, {
      routes: service(list, {
        'DELETE /api/integrations/:id': () => {
          list.pop();
          return new Response(null, { status: 204 });
        },
      }),
    });
    await user.click(within(await row(/ERP/)).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete integration' });
    expect(within(dialog).getByText(/tokens stop working at once/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(within(await row(/ERP/)).getByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete integration' })).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('No integrations yet')).toBeTruthy();
    expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/integrations/1');
  });

  it('offers no change to an account that may only read integrations', async () => {
    const { calls } = renderPage(<IntegrationsPage />, {
      routes: { ...service([integration()]), 'GET /api/me': () => json(me(['integration:read'])) },
    });
    const erp = await row(/ERP/);
    // Nothing is offered until GET /api/me answers either: let it answer before looking.
    await afterAnswer(calls, '/api/me');
    expect(screen.queryByRole('button', { name: 'Add integration' })).toBeNull();
    expect(within(erp).queryByRole('button')).toBeNull();
    expect(within(erp).getByText('Active')).toBeTruthy();
  });
});
