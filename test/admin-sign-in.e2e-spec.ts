import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { fillServiceSignIn, recordTokenGrants } from './support/admin-sign-in.js';
import { openPageAt, shootAndCheckLayout, WIDTHS } from './support/admin-widths.js';
import { openBrowser } from './support/browser.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';

/** Screenshots of the sign-in screens (ADMIN_SIGN_IN_SHOTS moves them, e.g. to look at them while working). */
const SHOTS = process.env.ADMIN_SIGN_IN_SHOTS ?? join(process.cwd(), 'test-results', 'admin-sign-in');

/**
 * The administration UI signs in by the authorization code flow with PKCE, in Debian's Chromium at a desktop and a
 * phone width: a first visit goes to the service's own sign-in page (so does "Sign in" after a sign-out), which
 * sends the browser back to /admin/callback; the UI never sends a password grant. A cancelled or forged answer is
 * said in words, with a way to sign in again.
 */
describe('Signing in to the administration UI, in a real browser', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    t = await startTestApp();
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close({ destroy: true });
  });

  describe.each(WIDTHS)('at %i px', (width) => {
    let page: Page;
    let grants: string[];

    const heading = (name: string) => page.getByRole('heading', { level: 1, name });
    const shoot = (name: string) => shootAndCheckLayout(page, join(SHOTS, `${name}-${width}.png`));

    beforeAll(async () => {
      page = await openPageAt(browser, width);
      grants = recordTokenGrants(page);
    });
    afterAll(async () => {
      await page?.context().close();
    });

    it("goes from a first visit straight to the service's sign-in page, with state and an S256 challenge", async () => {
      await page.goto(`${t.url}/admin/settings/system/users?from=link`);
      await page.waitForURL((url) => url.pathname === '/api/oauth/authorize');
      const request = new URL(page.url()).searchParams;
      expect(Object.fromEntries(request)).toEqual({
        response_type: 'code',
        client_id: 'administration',
        redirect_uri: `${t.url}/admin/callback`,
        state: expect.stringMatching(/^[\w-]{43}$/),
        code_challenge: expect.stringMatching(/^[\w-]{43}$/),
        code_challenge_method: 'S256',
      });
      await heading('Sign in').waitFor();
      await shoot('service-sign-in');
    });

    it("shows the service page's message for a wrong password", async () => {
      await fillServiceSignIn(page, 'admin', 'not the password');
      await expect(page.getByRole('alert').innerText()).resolves.toBe('Wrong username or password.');
      await shoot('service-sign-in-refused');
    });

    it('signs in, back on the page that was asked for, with code and state gone from the address', async () => {
      await page.getByLabel('Password').fill(ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await heading('Users').waitFor();
      expect(page.url()).toBe(`${t.url}/admin/settings/system/users?from=link`);
      expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual(['admin.refresh_token']);
      expect(grants).toEqual(['authorization_code']);
    });

    it('stays signed in across a reload', async () => {
      await page.reload();
      await heading('Users').waitFor();
      expect(grants).toEqual(['authorization_code', 'refresh_token']);
    });

    it('signs out to the signed-out screen', async () => {
      await page.getByRole('button', { name: 'Account: admin' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await heading('Administration').waitFor();
      expect(await page.getByRole('status').innerText()).toBe('You have signed out.');
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      await shoot('signed-out');
    });

    it('says a cancelled sign-in in words, and signs in again from there', async () => {
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/api/oauth/authorize');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await heading('Not signed in').waitFor();
      await expect(page.getByRole('alert').innerText()).resolves.toBe('Sign-in was cancelled.');
      expect(page.url()).toBe(`${t.url}/admin/callback`);
      await shoot('callback-cancelled');
      await page.getByRole('button', { name: 'Sign in again' }).click();
      await fillServiceSignIn(page, 'admin', ADMIN_PASSWORD);
      // Signed out on the landing page, so back to the landing page: the first section.
      await heading('Integrations').waitFor();
    });

    it("opened at another address of the service, signs in at the issuer's, where the redirect URI is", async () => {
      const other = await openPageAt(browser, width);
      const elsewhere = t.url.replace('127.0.0.1', 'localhost');
      await other.goto(`${elsewhere}/admin/settings/system/roles`);
      await fillServiceSignIn(other, 'admin', ADMIN_PASSWORD);
      await other.getByRole('heading', { level: 1, name: 'Roles' }).waitFor();
      expect(other.url()).toBe(`${t.url}/admin/settings/system/roles`);
      await other.context().close();
    });

    it('refuses an answer this tab did not ask for, without redeeming its code', async () => {
      const before = grants.length;
      const other = await page.context().newPage();
      const otherGrants = recordTokenGrants(other);
      await other.goto(`${t.url}/admin/callback?code=a-code&state=a-state-of-another-tab&iss=${t.url}`);
      await other.getByRole('heading', { level: 1, name: 'Not signed in' }).waitFor();
      expect(await other.getByRole('alert').innerText()).toMatch(/did not start in this tab/);
      expect(other.url()).toBe(`${t.url}/admin/callback`);
      page = other;
      await shoot('callback-forged');
      expect(otherGrants).toEqual([]);
      expect(grants).toHaveLength(before);
      expect([...grants, ...otherGrants]).not.toContain('password');
    });
  });
});
