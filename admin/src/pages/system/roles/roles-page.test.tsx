import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { afterAnswer, json, problem, renderPage, type Handler } from '../../../testing/render';
import { CATALOG, me, role, ROLES, pageOf } from '../../../testing/system-fixtures';
import { RolesPage } from './roles-page';

function service(permissions: string[], extra: Record<string, Handler> = {}) {
  return {
    'GET /api/roles': () => json(pageOf(ROLES)),
    'GET /api/permissions': () => json(CATALOG),
    'GET /api/me': () => json(me(permissions)),
    ...extra,
  };
}

const row = (name: RegExp) => screen.findByRole('row', { name });
const checkbox = (scope: HTMLElement, name: string) => within(scope).getByRole<HTMLInputElement>('checkbox', { name });

describe('RolesPage', () => {
  it('lists the roles with their permissions; built-in ones cannot be changed', async () => {
    renderPage(<RolesPage />, { routes: service(['*']) });
    const admin = await row(/admin/);
    expect(within(admin).getByText('All permissions')).toBeTruthy();
    expect(within(admin).getByText('Built in')).toBeTruthy();
    expect(within(admin).queryByRole('button')).toBeNull();
    const webhooks = await row(/webhook-manager/);
    expect(within(webhooks).getByText('webhook: read, write')).toBeTruthy();
    expect(within(webhooks).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(within(webhooks).getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('creates a role with the permissions picked, grouped by resource', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderPage(<RolesPage />, {
      routes: service(['*'], { 'POST /api/roles': () => json(role(9, 'x', []), 201) }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add role' }));
    const dialog = screen.getByRole('dialog', { name: 'Add role' });
    await user.type(within(dialog).getByLabelText('Name'), 'catalog-editor');
    await user.click(await waitFor(() => checkbox(dialog, 'product:write')));
    await user.click(checkbox(dialog, 'product:read'));
    await user.click(checkbox(dialog, 'role:read'));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'catalog-editor',
      permissions: ['product:read', 'product:write', 'role:read'],
    });
  });

  it('grants everything with `*` alone', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderPage(<RolesPage />, {
      routes: service(['*'], { 'POST /api/roles': () => json(role(9, 'x', ['*']), 201) }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add role' }));
    const dialog = screen.getByRole('dialog', { name: 'Add role' });
    await user.type(within(dialog).getByLabelText('Name'), 'root');
    await user.click(await waitFor(() => checkbox(dialog, 'product:read')));
    await user.click(within(dialog).getByRole('checkbox', { name: /All permissions/ }));
    expect(checkbox(dialog, 'role:write').checked).toBe(true);
    expect(checkbox(dialog, 'role:write').disabled).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ name: 'root', permissions: ['*'] }),
    );
  });

  it('offers only what the signed-in user holds', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage(<RolesPage />, { routes: service(['product:read', 'role:read', 'role:write']) });
    await user.click(await screen.findByRole('button', { name: 'Add role' }));
    const dialog = screen.getByRole('dialog', { name: 'Add role' });
    await waitFor(() => checkbox(dialog, 'product:read'));
    expect(within(dialog).queryByRole('checkbox', { name: /All permissions/ })).toBeNull();
    expect(within(dialog).queryByRole('checkbox', { name: 'product:write' })).toBeNull();
    expect(within(dialog).queryByRole('rowheader', { name: 'webhook' })).toBeNull();
    expect(checkbox(dialog, 'role:write').disabled).toBe(false);
    expect(within(dialog).getByText(/Only permissions you hold yourself are offered/)).toBeTruthy();
  });

  it('does not offer to change roles that hold more than the signed-in user', async () => {
    renderPage(<RolesPage />, { routes: service(['product:read', 'role:read', 'role:write']) });
    const webhooks = await row(/webhook-manager/);
    await waitFor(() => expect(within(webhooks).getByText('Holds permissions you do not')).toBeTruthy());
    expect(within(webhooks).queryByRole('button')).toBeNull();
    expect(within(await row(/catalog-reader/)).getByRole('button', { name: 'Edit' })).toBeTruthy();
  });

  it('edits a role: its permissions checked, the change saved', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderPage(<RolesPage />, {
      routes: service(['*'], { 'PATCH /api/roles/:id': () => json(role(3, 'x', [])) }),
    });
    await user.click(within(await row(/webhook-manager/)).getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit role' });
    expect(within(dialog).getByLabelText('Name')).toHaveProperty('value', 'webhook-manager');
    const write = await waitFor(() => checkbox(dialog, 'webhook:write'));
    expect(write.checked).toBe(true);
    await user.click(write);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({
      path: '/api/roles/3',
      body: { name: 'webhook-manager', permissions: ['webhook:read'] },
    });
  });

  it("shows the service's 403 when it refuses", async () => {
    const user = userEvent.setup({ delay: null });
    renderPage(<RolesPage />, {
      routes: service(['*'], {
        'POST /api/roles': () =>
          problem(
            403,
            'Permissions not held',
            'To create the role "x" you must hold every permission involved; missing: role:write.',
          ),
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Add role' }));
    const dialog = screen.getByRole('dialog', { name: 'Add role' });
    await user.type(within(dialog).getByLabelText('Name'), 'x');
    await user.click(await waitFor(() => checkbox(dialog, 'role:write')));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(
      /^Permissions not held: To create the role "x" .* missing: role:write\.$/,
    );
    expect(screen.getByRole('dialog', { name: 'Add role' })).toBeTruthy();
  });

  it('shows why a role in use cannot be deleted (409)', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = renderPage(<RolesPage />, {
      routes: service(['*'], {
        'DELETE /api/roles/:id': () =>
          problem(409, 'Role in use', 'The role "catalog-reader" is held by 1 integration.'),
      }),
    });
    await user.click(within(await row(/catalog-reader/)).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete role' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Role in use: The role "catalog-reader" is held by 1 integration.',
    );
    expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/roles/2');
  });

  it('offers no change to an account that may only read roles', async () => {
    const { calls } = renderPage(<RolesPage />, { routes: service(['role:read', 'webhook:read', 'webhook:write']) });
    const webhooks = await row(/webhook-manager/);
    await afterAnswer(calls, '/api/me');
    expect(within(webhooks).getByText('webhook: read, write')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add role' })).toBeNull();
    expect(within(webhooks).queryByRole('button', { name: 'Edit' })).toBeNull();
  });
});
