import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { authorizeUrl, pkce, signInAt } from './support/authorization-code.js';
import { signInToAdmin } from './support/admin-sign-in.js';
import {
  adminBrowserSuite,
  closeMainNavigation,
  openMainNavigation,
  openPageAt,
  shootAndCheckLayout,
  WIDTHS,
} from './support/admin-widths.js';
import { ADMIN_PASSWORD } from './support/test-app.js';

const SHOTS = process.env.ADMIN_APPS_SHOTS ?? join(process.cwd(), 'test-results', 'admin-connected-apps');
const CALLBACK = 'https://shop.example/oauth/callback';

/**
 * Applications in the administration UI, in a real browser at a desktop and a phone width: the Add application
 * dialog sets a scope ceiling with the roles' permission picker and says a refused redirect URI once, at its field;
 * the list says each application's permissions in words; "Connected applications", from the account menu, lists the
 * applications the signed-in person allowed and revokes one after confirmation.
 */
describe('Applications and connected applications, in a real browser', () => {
  const suite = adminBrowserSuite(SHOTS);

  /** The administrator allows `clientId` on the service's consent page (outside the browser). */
  async function allow(clientId: string) {
    const { challenge } = await pkce();
    const target = authorizeUrl(suite.t.url, {
      client_id: clientId,
      redirect_uri: CALLBACK,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st',
    });
    const back = await signInAt(suite.t.url, target, 'admin', ADMIN_PASSWORD);
    expect(back.searchParams.get('code')).toEqual(expect.any(String));
  }

  describe.each(WIDTHS)('at %i px', (width) => {
    let page: Page;
    const shoot = (name: string) => shootAndCheckLayout(page, join(SHOTS, `${name}-${width}.png`));
    const name = `Shop front ${width}`;

    beforeAll(async () => {
      page = await openPageAt(suite.browser, width);
      await page.goto(`${suite.t.url}/admin/`);
      await signInToAdmin(page, 'admin', ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Account: admin' }).waitFor();
    });
    afterAll(async () => {
      await page?.context().close();
    });

    it('adds an application with a scope ceiling, saying a refused redirect URI once, at its field', async () => {
      const nav = await openMainNavigation(page);
      await nav.getByRole('link', { name: 'Applications' }).click();
      await closeMainNavigation(page);
      await page.getByRole('button', { name: 'Add application' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add application' });
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByLabel('Redirect URIs').fill('http://shop.example/oauth/callback');
      const picker = dialog.getByRole('group', { name: 'Permissions' });
      await picker.getByRole('checkbox', { name: 'product:read' }).check();
      await picker.getByRole('checkbox', { name: 'article:read' }).check();
      const defaults = dialog.getByRole('group', { name: 'Asked for when it names none' });
      await defaults.getByRole('checkbox', { name: /product:read/ }).check();
      await defaults.scrollIntoViewIfNeeded();
      await shoot('add-application-scopes');
      await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      await expect(dialog.getByRole('alert').innerText()).resolves.toBe('Not saved: correct the fields marked above.');
      const text = await dialog.innerText();
      expect(text.split('may use http only').length).toBe(2);
      expect(text).toContain('http://shop.example/oauth/callback may use http only');
      expect(text).not.toContain('redirect_uris');
      await shoot('add-application-refused');

      await dialog.getByLabel('Redirect URIs').fill(CALLBACK);
      await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      await dialog.getByRole('textbox', { name: 'Client ID' }).waitFor();
      await dialog.getByRole('button', { name: 'Done' }).click();
      const row = page.getByRole('row', { name: new RegExp(name) });
      await expect(cellText(row, 'See articles, see products')).resolves.toBe(true);
      await expect(cellText(row, 'By default: see products')).resolves.toBe(true);
      await shoot('applications');
    });

    it('lists the applications the administrator allowed, and revokes one after confirmation', async () => {
      const clients = (await suite.t.http.get('/api/oauth/clients').query({ q: name }).expect(200)).body as {
        items: Array<{ client_id: string; name: string }>;
      };
      const registered = clients.items.find((client) => client.name === name)!;
      await allow(registered.client_id);

      await page.getByRole('button', { name: 'Account: admin' }).click();
      await page.getByRole('menuitem', { name: 'Connected applications' }).click();
      await page.getByRole('heading', { level: 1, name: 'Connected applications' }).waitFor();
      const row = page.getByRole('row', { name: new RegExp(name) });
      await expect(cellText(row, 'shop.example')).resolves.toBe(true);
      await expect(cellText(row, 'See products')).resolves.toBe(true);
      await shoot('connected-applications');

      await row.getByRole('button', { name: 'Revoke' }).click();
      const dialog = page.getByRole('dialog', { name: 'Revoke access' });
      await shoot('revoke-access');
      await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
      await row.waitFor({ state: 'detached' });
      const left = (await suite.t.http.get('/api/me/grants').expect(200)).body as {
        items: Array<{ client_id: string }>;
      };
      expect(left.items.map((grant) => grant.client_id)).not.toContain(registered.client_id);
    });
  });
});

/** Whether the row shows `text` as the whole text of one of its elements. */
async function cellText(row: Locator, text: string): Promise<boolean> {
  await row.getByText(text, { exact: true }).first().waitFor();
  return true;
}
