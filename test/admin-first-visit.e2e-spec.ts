import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { fillServiceSignIn } from './support/admin-sign-in.js';
import { adminBrowserSuite, openPageAt, shootAndCheckLayout, WIDTHS } from './support/admin-widths.js';
import { ADMIN_PASSWORD } from './support/test-app.js';

const SHOTS = process.env.ADMIN_FIRST_VISIT_SHOTS ?? join(process.cwd(), 'test-results', 'admin-first-visit');
const METADATA_PATH = '/.well-known/oauth-authorization-server';
const onServiceSignIn = (url: URL) => url.pathname === '/api/oauth/authorize';

/**
 * Nobody signed in: /admin has nothing to show but a way to sign in, so it goes straight to the service's sign-in
 * page, leaving itself out of the history (Back leaves instead of being sent on again). After a sign-out, or when
 * the sign-in page cannot be opened, the signed-out screen stays, with its reason and a visible "Sign in".
 */
describe('A first visit to the administration UI, in a real browser', () => {
  const suite = adminBrowserSuite(SHOTS);

  describe.each(WIDTHS)('at %i px', (width) => {
    let page: Page;
    const shoot = (name: string) => shootAndCheckLayout(page, join(SHOTS, `${name}-${width}.png`));
    const signInButton = () => page.getByRole('button', { name: 'Sign in', exact: true });

    beforeEach(async () => {
      page = await openPageAt(suite.browser, width);
    });
    afterEach(async () => {
      await page?.context().close();
    });

    it("lands on the service's sign-in page, and Back leaves instead of looping", async () => {
      const before = `${suite.t.url}/health`;
      await page.goto(before);
      await page.goto(`${suite.t.url}/admin`);
      await page.waitForURL(onServiceSignIn);
      expect(new URL(page.url()).searchParams.get('client_id')).toBe('administration');
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await page.goBack();
      await page.waitForURL(before);
      await fillServiceSignIn(await goForward(page), 'admin', ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Account: admin' }).waitFor();
    });

    it('after a sign-out, stays on the signed-out screen with a visible way back', async () => {
      await page.goto(`${suite.t.url}/admin/settings/system/roles`);
      await fillServiceSignIn(page, 'admin', ADMIN_PASSWORD);
      await page.getByRole('heading', { level: 1, name: 'Roles' }).waitFor();
      await page.getByRole('button', { name: 'Account: admin' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.getByRole('heading', { level: 1, name: 'Administration' }).waitFor();
      expect(await page.getByRole('status').innerText()).toBe('You have signed out.');
      expect(await signInButton().isVisible()).toBe(true);
      await shoot('signed-out');
      // Still here after the screenshot, and no sign-in was started unasked.
      expect(new URL(page.url()).pathname).toMatch(/^\/admin\/?$/);
      expect(await page.evaluate(() => sessionStorage.getItem('admin.sign_in'))).toBeNull();
      await signInButton().click();
      await page.waitForURL(onServiceSignIn);
    });

    it('says why when the sign-in page cannot be opened, and signs in from there once it can', async () => {
      await page.route(`**${METADATA_PATH}`, (route) => route.abort('connectionrefused'));
      await page.goto(`${suite.t.url}/admin/settings/system/users`);
      await expect(page.getByRole('alert').innerText()).resolves.toBe(
        'The service cannot be reached. Check your connection and try again.',
      );
      expect(await signInButton().isVisible()).toBe(true);
      await shoot('sign-in-unreachable');
      await page.unroute(`**${METADATA_PATH}`);
      await signInButton().click();
      await fillServiceSignIn(page, 'admin', ADMIN_PASSWORD);
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    });
  });
});

/** Forward again to the service's sign-in page (the entry the interface replaced itself with). */
async function goForward(page: Page): Promise<Page> {
  await page.goForward();
  await page.waitForURL(onServiceSignIn);
  return page;
}
