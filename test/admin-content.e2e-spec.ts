import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { signInToAdmin } from './support/admin-sign-in.js';
import { openMainNavigation, openPageAt, shootAndCheckLayout, WIDTHS } from './support/admin-widths.js';
import { openBrowser } from './support/browser.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './support/wait.js';

/** Signs in as the administrator from the UI's signed-out screen; resolves on the first page after it. */
async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/admin/`);
  await signInToAdmin(page, 'admin', ADMIN_PASSWORD);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

/** Screenshots of each step (ADMIN_CONTENT_SHOTS moves them, e.g. to look at them while working). */
const SHOTS = process.env.ADMIN_CONTENT_SHOTS ?? join(process.cwd(), 'test-results', 'admin-content');

interface Product {
  id: number;
  name: string;
  description: string | null;
  cover: { original_name: string } | null;
}

/**
 * Content editing in Debian's Chromium, at a desktop and a phone width: a product created (the service's field errors
 * shown at their fields), edited, given a cover image and deleted, each step checked through the API, with nothing
 * wider than the window; the labels are the OpenAPI titles.
 */
describe('Content editing in the administration UI, in a real browser', () => {
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
    let id: number;

    const dialog = () => page.getByRole('dialog');
    const product = async () => (await t.http.get(`/products/${id}`).expect(200)).body as Product;
    const shoot = (name: string) => shootAndCheckLayout(page, join(SHOTS, `${name}-${width}.png`));

    beforeAll(async () => {
      page = await openPageAt(browser, width);
      // A script, style or request the admin's Content-Security-Policy refuses fails the run.
      page.on('console', (message) => {
        if (/Content.Security.Policy/i.test(message.text())) throw new Error(message.text());
      });
    });
    afterAll(async () => {
      await page?.context().close();
    });

    it('creates a product from the keyboard, showing the service’s field error at its field first', async () => {
      await signIn(page, t.url);
      await (await openMainNavigation(page)).getByRole('link', { name: 'Products', exact: true }).click();
      await page.getByText('No products yet').waitFor();

      await page.getByRole('button', { name: 'Add product' }).focus();
      await page.keyboard.press('Enter');
      await dialog().getByRole('heading', { name: 'Add product' }).waitFor();
      await dialog().getByRole('button', { name: 'Create' }).click();
      const name = dialog().getByLabel('Name');
      await dialog().getByText('Name is required').waitFor();
      expect(await name.getAttribute('aria-invalid')).toBe('true');
      const focused = (input: unknown) =>
        input === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement;
      expect(await name.evaluate(focused)).toBe(true);
      await shoot('create-refused');

      await page.keyboard.type('Desk lamp');
      await dialog().getByLabel('Description').fill('A lamp for the desk.');
      await name.press('Enter');
      await page.waitForURL(/\/admin\/content\/product\/\d+$/);
      id = Number(new URL(page.url()).pathname.split('/').pop());
      await page.getByRole('heading', { level: 1, name: 'Desk lamp' }).waitFor();
      expect(await product()).toMatchObject({ name: 'Desk lamp', description: 'A lamp for the desk.', cover: null });
    });

    it('labels the fields with their OpenAPI titles and edits the product', async () => {
      await page.getByRole('region', { name: 'Cover image', exact: true }).waitFor();
      await page.getByRole('region', { name: 'Gallery', exact: true }).waitFor();
      const details = page.getByRole('region', { name: 'Details' });
      await details.getByLabel('Name').fill('Floor lamp');
      await details.getByLabel('Description').fill('');
      await details.getByRole('button', { name: 'Save' }).click();
      await details.getByText('Saved Floor lamp.').waitFor();
      await page.getByRole('heading', { level: 1, name: 'Floor lamp' }).waitFor();
      expect(await product()).toMatchObject({ name: 'Floor lamp', description: null });

      await page.getByRole('link', { name: '← Products' }).click();
      await page.getByRole('link', { name: 'Floor lamp' }).waitFor();
      await shoot('products');
      await page.getByRole('link', { name: 'Floor lamp' }).click();
      await page.getByRole('heading', { level: 1, name: 'Floor lamp' }).waitFor();
    });

    it('uploads a cover image', async () => {
      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 120, b: 30 } } })
        .png()
        .toBuffer();
      await page.getByLabel('Choose files for Cover image').setInputFiles({
        name: 'lamp.png',
        mimeType: 'image/png',
        buffer: png,
      });
      await page.getByRole('listitem', { name: /lamp\.png/ }).waitFor();
      const stored = await eventually('the cover to be stored', async () => (await product()).cover ?? undefined);
      expect(stored.original_name).toBe('lamp.png');
      await shoot('product');
    });

    it('deletes the product after confirmation', async () => {
      await page.getByRole('button', { name: 'Delete product' }).click();
      await dialog().getByText('all its files are removed for good').waitFor();
      await shoot('delete-dialog');
      await dialog().getByRole('button', { name: 'Delete' }).click();
      await page.waitForURL((url) => url.pathname === '/admin/content/product');
      await page.getByText('No products yet').waitFor();
      await t.http.get(`/products/${id}`).expect(404);
    });
  });
});
