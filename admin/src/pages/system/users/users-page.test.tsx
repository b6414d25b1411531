import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../api/client';
import { json, problem, renderPage, type Handler } from '../../../testing/render';
import { bodyOf, me, ROLES, user as userOf, pageOf } from '../../../testing/system-fixtures';
import { UsersPage } from './users-page';

const PASSWORD = 'correct horse battery';

function service(list: Schemas['User'][], extra: Record<string, Handler> = {}) {
  return {
    'GET /api/users': () => json(pageOf(list)),
    'GET /api/roles': () => json(pageOf(ROLES)),
    'GET /api/me': () => json(me(['*'], 1)),
    ...extra,
  };
}

const USERS = [userOf(1, 'admin', 'admin'), userOf(2, 'editor', 'catalog-reader')];
const row = (name: RegExp) => screen.findByRole('row', { name });
const noContent = () => new Response(null, { status: 204 });

describe('UsersPage', () => {
  it('lists the users and marks the signed-in one', async () => {
    renderPage(<UsersPage />, { routes: service(USERS) });
    const editor = await row(/editor/);
    expect(within(editor).getByText('catalog-reader')).toBeTruthy();
    expect(within(editor).getByRole('button', { name: 'Reset password' })).toBeTruthy();
    const self = await row(/admin/);
    await waitFor(() => expect(within(self).getByText('You')).toBeTruthy());
    // One's own password is changed with the current one, from the account menu.
    expect(within(self).queryByRole('button', { name: 'Reset password' })).toBeNull();
    expect(screen.queryByText('Your password')).toBeNull();
  });

  it('adds a user with username, password and role', async () => {
    const list = [...USERS];
    const actor = userEvent.setup({ delay: null });
    const { calls } = renderPage(<UsersPage />, {
      routes: service(list, {
        'POST /api/users': async (request) => {
          const body = await bodyOf(request);
          list.push(userOf(3, body.username as string, body.role as string));
          return json(list[2], 201);
        },
      }),
    });
    await actor.click(await screen.findByRole('button', { name: 'Add user' }));
    const dialog = screen.getByRole('dialog', { name: 'Add user' });
    await actor.type(within(dialog).getByLabelText('Username'), 'writer');
    await actor.type(within(dialog).getByLabelText('Password'), PASSWORD);
    await actor.type(within(dialog).getByLabelText('Repeat password'), PASSWORD);
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'catalog-reader' })).toBeTruthy());
    await actor.selectOptions(within(dialog).getByLabelText('Role'), 'catalog-reader');
    await actor.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await row(/writer/)).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      username: 'writer',
      password: PASSWORD,
      role: 'catalog-reader',
    });
  });

  it('does not send two passwords that differ', async () => {
    const actor = userEvent.setup({ delay: null });
    const { calls } = renderPage(<UsersPage />, { routes: service(USERS) });
    await actor.click(within(await row(/editor/)).getByRole('button', { name: 'Reset password' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset password' });
    await actor.type(within(dialog).getByLabelText('New password'), PASSWORD);
    await actor.type(within(dialog).getByLabelText('Repeat new password'), `${PASSWORD}!`);
    await actor.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('The two passwords differ.')).toBeTruthy();
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
  });

  it("resets a user's password through updateUser", async () => {
    const actor = userEvent.setup({ delay: null });
    const { calls } = renderPage(<UsersPage />, {
      routes: service(USERS, { 'PATCH /api/users/:id': () => json(USERS[1]) }),
    });
    await actor.click(within(await row(/editor/)).getByRole('button', { name: 'Reset password' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset password' });
    await actor.type(within(dialog).getByLabelText('New password'), PASSWORD);
    await actor.type(within(dialog).getByLabelText('Repeat new password'), PASSWORD);
    await actor.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/The password of editor was reset/)).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({
      path: '/api/users/2',
      body: { password: PASSWORD },
    });
  });

  it("changes a user's role, and shows the service's refusal", async () => {
    const actor = userEvent.setup({ delay: null });
    const { calls } = renderPage(<UsersPage />, {
      routes: service(USERS, {
        'PATCH /api/users/:id': () => problem(409, 'Last administrator', 'The change would leave no administrator.'),
      }),
    });
    await actor.click(within(await row(/admin/)).getByRole('button', { name: 'Change role' }));
    const dialog = screen.getByRole('dialog', { name: 'Change role' });
    await waitFor(() => expect(within(dialog).getByLabelText('Role')).toHaveProperty('value', 'admin'));
    await actor.selectOptions(within(dialog).getByLabelText('Role'), 'webhook-manager');
    await actor.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Last administrator: The change would leave no administrator.',
    );
    expect(calls.find((call) => call.method === 'PATCH')).toMatchObject({
      path: '/api/users/1',
      body: { role: 'webhook-manager' },
    });
  });

  it('deletes a user after confirmation', async () => {
    const list = [...USERS];
    const actor = userEvent.setup({ delay: null });
    const { calls } = renderPage(<UsersPage />, {
      routes: service(list, {
        'DELETE /api/users/:id': () => {
          list.pop();
          return noContent();
        },
      }),
    });
    await actor.click(within(await row(/editor/)).getByRole('button', { name: 'Delete' }));
    await actor.click(
      within(screen.getByRole('dialog', { name: 'Delete user' })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByRole('row', { name: /editor/ })).toBeNull());
    expect(calls.find((call) => call.method === 'DELETE')?.path).toBe('/api/users/2');
  });

  it('offers no change to an account that may only read users', async () => {
    renderPage(<UsersPage />, { routes: { ...service(USERS), 'GET /api/me': () => json(me(['user:read'], 1)) } });
    // The "You" badge shows once GET /api/me has answered: from then on the permissions are known.
    const self = await row(/admin/);
    await waitFor(() => expect(within(self).getByText('You')).toBeTruthy());
    // The headings that sort are buttons; no row has any.
    const [headings, ...rows] = screen.getAllByRole('row');
    expect(
      within(headings)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual([expect.stringContaining('Username'), expect.stringContaining('Created')]);
    for (const user of rows) expect(within(user).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add user' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });
});
