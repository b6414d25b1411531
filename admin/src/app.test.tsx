import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AttachmentTypeInfo } from './content-types';
import { AdminRoutes } from './app';
import { ShowLocation } from './testing/location';
import { json, problem, renderPage, type Handler } from './testing/render';
import { integration, me, ROLES, pageOf } from './testing/system-fixtures';

const TYPES: AttachmentTypeInfo[] = ['product', 'article'].map((type) => ({
  attachment_type: type,
  collection_path: `/${type}s`,
  fields: [],
}));
const EMPTY_PAGE = { items: [], total: 0, limit: 20, offset: 0 };

/** The signed-in interface at `path`, for an account holding `permissions` (and reading `types`). */
function signedIn(permissions: string[], path = '/', extra: Record<string, Handler> = {}, types = TYPES) {
  const readable = types.filter((type) =>
    permissions.some((held) => ['*', `${type.attachment_type}:read`].includes(held)),
  );
  return renderPage(
    <>
      <AdminRoutes />
      <ShowLocation />
    </>,
    {
      path,
      routes: {
        'GET /api/me': () => json(me(permissions)),
        'GET /files/fields': () => json(readable),
        'GET /api/integrations': () => json(pageOf([integration()])),
        'GET /api/roles': () => json(pageOf(ROLES)),
        'GET /api/users': () => json(pageOf([])),
        'GET /api/webhooks': () => json(EMPTY_PAGE),
        'GET /api/audit-events': () => json({ ...EMPTY_PAGE, limit: 25 }),
        'GET /products': () => json(EMPTY_PAGE),
        'GET /articles': () => json(EMPTY_PAGE),
        ...extra,
      },
    },
  );
}

const nav = () => screen.getByRole('navigation', { name: 'Main' });
const navLinks = () =>
  within(nav())
    .queryAllByRole('link')
    .map((link) => link.textContent);
const heading = (name: string) => screen.findByRole('heading', { level: 1, name });
const location = () => screen.getByTestId('location').textContent;

describe('Navigation by permission', () => {
  it('shows an administrator every section, the audit log included, and lands on the first', async () => {
    signedIn(['*']);
    expect(await heading('Integrations')).toBeTruthy();
    expect(location()).toBe('/settings/system/integrations');
    await waitFor(() =>
      expect(navLinks()).toEqual([
        'Integrations',
        'Applications',
        'Roles',
        'Users',
        'Webhooks',
        'Audit log',
        'Products',
        'Articles',
      ]),
    );
  });

  it('shows a catalog editor only the content they may read, and lands on Products', async () => {
    const { calls } = signedIn(['product:read', 'product:write']);
    expect(await heading('Products')).toBeTruthy();
    expect(location()).toBe('/content/product');
    expect(navLinks()).toEqual(['Products']);
    expect(within(nav()).queryByText('Settings')).toBeNull();
    expect(calls.some((call) => call.path.startsWith('/api/integrations'))).toBe(false);
  });

  it('answers a section the account may not read in words, without asking the API', async () => {
    const { calls } = signedIn(['product:read'], '/settings/system/integrations');
    expect(await heading('No access')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(
      "You don't have permission to see integrations. " +
        'Ask an administrator for a role with the “integration:read” permission.',
    );
    expect(screen.queryByRole('button', { name: 'Add integration' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to a page you can see' }).getAttribute('href')).toBe('/');
    expect(calls.some((call) => call.path.startsWith('/api/integrations'))).toBe(false);
  });

  it('says so when the role opens no page at all', async () => {
    signedIn([]);
    expect(await screen.findByText('Your role opens no page here yet')).toBeTruthy();
    expect(navLinks()).toEqual([]);
  });

  it('sends an unknown address to the first page the account may see', async () => {
    signedIn(['audit:read', 'article:read'], '/no/such/page');
    expect(await heading('Audit log')).toBeTruthy();
    expect(navLinks()).toEqual(['Audit log', 'Articles']);
  });
});

describe('The account menu', () => {
  const accountButton = () => screen.findByRole('button', { name: /^Account: admin/ });

  it('opens from the keyboard, moves with the arrows, and closes with Escape back on its button', async () => {
    const actor = userEvent.setup({ delay: null });
    signedIn(['*']);
    const button = await accountButton();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    button.focus();
    await actor.keyboard('{Enter}');
    const menu = screen.getByRole('menu');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Your password', 'Connected applications', 'Sign out']);
    expect(document.activeElement?.textContent).toBe('Your password');
    await actor.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Connected applications');
    await actor.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Sign out');
    await actor.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Your password');
    await actor.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('changes the signed-in user’s own password in a dialog, with the current one', async () => {
    const actor = userEvent.setup({ delay: null });
    const password = 'correct horse battery';
    let answer = problem(400, 'Wrong password', 'The current password is wrong.');
    const { calls } = signedIn(['*'], '/', { 'PUT /api/me/password': () => answer });
    await actor.click(await accountButton());
    await actor.click(screen.getByRole('menuitem', { name: 'Your password' }));
    const dialog = screen.getByRole('dialog', { name: 'Your password' });
    await actor.type(within(dialog).getByLabelText('Current password'), 'old password!');
    await actor.type(within(dialog).getByLabelText('New password'), password);
    await actor.type(within(dialog).getByLabelText('Repeat new password'), password);
    await actor.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Wrong password: The current password is wrong.',
    );
    answer = new Response(null, { status: 204 });
    await actor.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await within(dialog).findByText('Your password was changed.')).toBeTruthy();
    expect(within(dialog).getByLabelText('Current password')).toHaveProperty('value', '');
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      { current_password: 'old password!', new_password: password },
      { current_password: 'old password!', new_password: password },
    ]);
    await actor.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('signs out: back to the sign-in page, and the next account starts from its own first page', async () => {
    const actor = userEvent.setup({ delay: null });
    const { services } = signedIn(['product:read']);
    await actor.click(await accountButton());
    await actor.click(screen.getByRole('menuitem', { name: 'Sign out' }));
    // The way back stays in view: signing out does not lead straight into the next sign-in.
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('You have signed out.');
    expect(services.session.state.signedIn).toBe(false);
    expect(location()).toBe('/');
  });
});
