import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminRoutes } from '../app';
import { json, renderPage } from '../testing/render';
import { me, pageOf, ROLES } from '../testing/system-fixtures';

describe('A page that fails while it renders', () => {
  // React reports the error it caught on the console: expected here.
  const console = vi.spyOn(globalThis.console, 'error').mockImplementation(() => undefined);
  afterEach(() => console.mockClear());

  it('says why under the menu instead of a blank window, and the next page shows again', async () => {
    renderPage(<AdminRoutes />, {
      path: '/settings/system/integrations',
      routes: {
        'GET /api/me': () => json(me(['*'])),
        'GET /files/fields': () => json([]),
        // A list without its items: the list component cannot render it.
        'GET /api/integrations': () => json({ total: 1, limit: 20, offset: 0 }),
        'GET /api/roles': () => json(pageOf(ROLES)),
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'This page cannot be shown' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toMatch(/length/);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await userEvent.click(within(nav).getByRole('link', { name: 'Roles' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Roles' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'This page cannot be shown' })).toBeNull();
  });
});
