import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { signInToAdmin } from './support/admin-sign-in.js';
import {
  closeMainNavigation,
  isNarrow,
  openMainNavigation,
  openPageAt,
  shootAndCheckLayout,
  WIDTHS,
} from './support/admin-widths.js';
import { openBrowser } from './support/browser.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './support/wait.js';

/** Screenshots of each account's view (ADMIN_NAV_SHOTS moves them, e.g. to look at them while working). */
const SHOTS = process.env.ADMIN_NAV_SHOTS ?? join(process.cwd(), 'test-results', 'admin-nav');
const EDITOR = { username: 'editor', password: 'an-editor-password-long-enough' };
const EVERY_SECTION = [
  'Integrations',
  'Applications',
  'Roles',
  'Users',
  'Webhooks',
  'Audit log',
  'Articles',
  'Products',
];

/**
 * Navigation by permission in Debian's Chromium, at a desktop and a phone width (where the navigation is behind the
 * "Menu" button): an administrator sees every section and reads the audit log through its filters; a catalog editor
 * sees only the products, lands on them, and signs out from the account menu.
 */
describe('The administration UI by permission, in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let roleId: number;

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    t = await startTestApp();
    const role = await t.http
      .post('/api/roles')
      .send({ name: 'catalog-editor', permissions: ['product:read', 'product:write'] })
      .expect(201);
    roleId = role.body.id as number;
    await t.http
      .patch(`/api/roles/${roleId}`)
      .send({ permissions: ['product:read', 'product:write'] })
      .expect(200);
    await t.http
      .post('/api/users')
      .send({ ...EDITOR, role: 'catalog-editor' })
      .expect(201);
    await t.http.post('/products').send({ name: 'Lamp' }).expect(201);
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close({ destroy: true });
  });

  describe.each(WIDTHS)('at %i px', (width) => {
    let page: Page;

    const nav = () => page.getByRole('navigation', { name: 'Main' });
    /** The sections the main navigation offers, read the way a person would: opening the menu where it is one. */
    const navLinks = async () => {
      const links = await (await openMainNavigation(page)).getByRole('link').allInnerTexts();
      await closeMainNavigation(page);
      return links;
    };
    const heading = (name: string) => page.getByRole('heading', { level: 1, name });
    /** Rows of the table, the header row left out. */
    const bodyRows = () => page.locator('tbody tr');
    /** Waits for the table to hold a number of events that passes `check`. */
    const rowsUntil = (what: string, check: (count: number) => boolean) =>
      eventually(what, async () => {
        const count = await bodyRows().count();
        return check(count) ? count : undefined;
      });
    const shoot = (name: string) => shootAndCheckLayout(page, join(SHOTS, `${name}-${width}.png`));
    const signIn = async (username: string, password: string) => {
      await page.goto(`${t.url}/admin/`);
      await signInToAdmin(page, username, password);
    };
    const signOut = async (name: string) => {
      await page.getByRole('button', { name: `Account: ${name}` }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
    };

    beforeAll(async () => {
      page = await openPageAt(browser, width);
    });
    afterAll(async () => {
      await page?.context().close();
    });

    it('shows an administrator every section, and lands on the first', async () => {
      await signIn('admin', ADMIN_PASSWORD);
      await heading('Integrations').waitFor();
      // Narrow, the navigation waits behind the "Menu" button rather than taking the page's width.
      await expect(nav().isVisible()).resolves.toBe(!isNarrow(width));
      expect(await navLinks()).toEqual(EVERY_SECTION);
      await expect(page.getByRole('button', { name: 'Add integration' }).isVisible()).resolves.toBe(true);
      await shoot('admin-integrations');
    });

    it('reads the audit log through filters kept in the address, and expands an event', async () => {
      await (await openMainNavigation(page)).getByRole('link', { name: 'Audit log' }).click();
      await heading('Audit log').waitFor();
      await bodyRows().first().waitFor();
      expect(await bodyRows().count()).toBeGreaterThan(2);
      await shoot('admin-audit');

      await page.getByLabel('Target type').fill('role');
      await page.getByLabel('Target ID').fill(String(roleId));
      await page.getByLabel('Target ID').press('Enter');
      await page.waitForURL(/target_id=/);
      await rowsUntil('the two events of the role', (count) => count === 2);
      const actions = await bodyRows().locator('td[data-label="Action"] .mono').allInnerTexts();
      expect(actions).toEqual(['role.update', 'role.create']);

      // The address is the view: a reload shows the same filters and the same events.
      await page.reload();
      await rowsUntil('the two events of the role', (count) => count === 2);
      expect(await page.getByLabel('Target type').inputValue()).toBe('role');

      await page.getByLabel('Action').fill('role.create');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await rowsUntil('the one creation of the role', (count) => count === 1);
      expect(new URL(page.url()).searchParams.get('action')).toBe('role.create');

      // A time range that ends before everything recorded matches nothing.
      await page.getByLabel('Until').fill('2020-01-01T00:00');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText('No event matches these filters').waitFor();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await rowsUntil('every event again', (count) => count > 2);
      expect(new URL(page.url()).search).toBe('');

      const details = bodyRows().first().locator('summary');
      await details.focus();
      await page.keyboard.press('Enter');
      await bodyRows().first().getByText('Source IP').waitFor();
      await shoot('admin-audit-details');
    });

    it('opens "Your password" from the account menu, by keyboard', async () => {
      const account = page.getByRole('button', { name: 'Account: admin' });
      await account.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menuitem', { name: 'Your password' }).waitFor();
      await shoot('admin-account-menu');
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Your password' });
      await dialog.getByLabel('Current password').waitFor();
      await shoot('admin-password');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await signOut('admin');
    });

    it('lands a catalog editor on Products, with no system section and no integration to add', async () => {
      await signIn(EDITOR.username, EDITOR.password);
      await heading('Products').waitFor();
      expect(await navLinks()).toEqual(['Products']);
      await page.getByRole('link', { name: /Lamp/ }).waitFor();
      await shoot('editor-products');

      await page.goto(`${t.url}/admin/settings/system/integrations`);
      await heading('No access').waitFor();
      expect(await page.getByRole('alert').innerText()).toBe(
        "You don't have permission to see integrations. " +
          'Ask an administrator for a role with the “integration:read” permission.',
      );
      expect(await page.getByRole('button', { name: 'Add integration' }).count()).toBe(0);
      expect(await page.getByText('Insufficient scope').count()).toBe(0);
      await shoot('editor-no-access');
    });

    it('signs the editor out from the account menu', async () => {
      await signOut('editor');
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      expect(new URL(page.url()).pathname).toMatch(/^\/admin\/?$/);
    });
  });
});
