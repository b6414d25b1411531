import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { signInToAdmin } from './support/admin-sign-in.js';
import { openPageAt, WIDTHS } from './support/admin-widths.js';
import { openBrowser } from './support/browser.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './support/wait.js';

const SHOTS = process.env.ADMIN_WEBHOOK_SHOTS ?? join(process.cwd(), 'test-results', 'admin-webhooks');
/** One receiver, registered twice: once per signature scheme. */
const SHARED_URL = 'http://127.0.0.1:9/hooks/shared';

/** The page's own globals, as far as these tests read them (the tests compile without the DOM library). */
interface PageGlobals {
  innerHeight: number;
  document: { activeElement: unknown; querySelector(selector: string): { href: string } | null };
}

/**
 * The webhook list and form in Debian's Chromium, wide and narrow (issue 39, item 6): endpoints of one URL told apart
 * by their scheme and health, a search, and a refused URL whose cause shows at the URL field.
 */
describe('The webhook pages, in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;

  /** The list's rows (cards when narrow) that show `text`. */
  const rowsWith = (text: string) => page.locator('tbody tr').filter({ hasText: text });
  /** Whether the element is within the window as it is now, not scrolled away. */
  const inView = (locator: Locator) =>
    locator.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.height > 0 && box.top >= 0 && box.bottom <= (globalThis as unknown as PageGlobals).innerHeight;
    });

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_DISPATCHER: 'off' });
    for (const signature_scheme of ['github', 'standard']) {
      await t.http
        .post('/api/webhooks')
        .send({ url: SHARED_URL, events: ['*'], signature_scheme })
        .expect(201);
    }
    await t.http
      .post('/api/webhooks')
      .send({ url: 'http://127.0.0.1:9/erp', events: ['file.created'], description: 'ERP export' })
      .expect(201);
    browser = await openBrowser();
    page = await openPageAt(browser, WIDTHS[0], 800);
    await page.goto(`${t.url}/admin/`);
    await signInToAdmin(page, 'admin', ADMIN_PASSWORD);
    await page.getByRole('heading', { level: 1, name: 'Integrations' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close({ destroy: true });
  });

  it.each(WIDTHS)('tells two endpoints of one URL apart by their scheme, at %i px', async (width) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`${t.url}/admin/settings/system/webhooks`);
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    const shared = rowsWith(SHARED_URL);
    await eventually('both endpoints of the shared URL', async () => ((await shared.count()) === 2 ? true : undefined));
    const texts = await shared.allInnerTexts();
    expect(texts.filter((text) => text.includes('GitHub style'))).toHaveLength(1);
    expect(texts.filter((text) => text.includes('Standard Webhooks'))).toHaveLength(1);
    for (const text of texts) expect(text).toMatch(/Active[\s\S]*No delivery yet/);
    await expect(shared.getByText('Standard Webhooks').isVisible()).resolves.toBe(true);
    await page.screenshot({ path: join(SHOTS, `list-${width}.png`), fullPage: true });

    await page.getByRole('searchbox', { name: 'Search URLs and descriptions' }).fill('erp');
    await eventually('only the ERP endpoint', async () => (await page.locator('tbody tr').count()) === 1 || undefined);
    expect(await page.locator('tbody tr').innerText()).toContain('ERP export');
    expect(new URL(page.url()).searchParams.get('q')).toBe('erp');
  });

  it.each(WIDTHS)('shows why port 99999 is refused at the URL field, in view, at %i px', async (width) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`${t.url}/admin/settings/system/webhooks`);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook' });
    const url = dialog.getByLabel('URL', { exact: true });
    await url.fill('https://example.org:99999/hooks');
    // The form is taller than the window: sending it from its foot scrolls the field out of view.
    await dialog.getByRole('button', { name: 'Create' }).click();

    const cause = dialog.getByText('The port 99999 is out of range: a port is a number from 1 to 65535.');
    await cause.waitFor();
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    const focused = (element: unknown) => element === (globalThis as unknown as PageGlobals).document.activeElement;
    expect(await url.evaluate(focused)).toBe(true);
    await expect(inView(url)).resolves.toBe(true);
    await expect(inView(cause)).resolves.toBe(true);
    const describedBy = (await url.getAttribute('aria-describedby')) ?? '';
    const descriptions = await Promise.all(
      describedBy.split(' ').map((id) => page.locator(`[id="${id}"]`).innerText()),
    );
    expect(descriptions.join(' ')).toContain('The port 99999 is out of range');
    await expect(dialog.getByRole('alert').innerText()).resolves.toBe('Not saved: correct the fields marked above.');
    await page.screenshot({ path: join(SHOTS, `url-error-${width}.png`) });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('finds the icon the pages link to', async () => {
    const status = await page.evaluate(async () => {
      const link = (globalThis as unknown as PageGlobals).document.querySelector('link[rel="icon"]');
      return link ? (await fetch(link.href)).status : 0;
    });
    expect(status).toBe(200);
  });
});
