import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { signInToAdmin } from './support/admin-sign-in.js';
import { openPageAt, WIDTHS } from './support/admin-widths.js';
import { openBrowser } from './support/browser.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './support/wait.js';

const SHOTS = process.env.ADMIN_LISTS_SHOTS ?? join(process.cwd(), 'test-results', 'admin-lists');
/** In the order of creation, which is not the labels' order: a first page of 20, a second of 5. */
const LABELS = [
  'Warehouse sync',
  ...Array.from({ length: 24 }, (_, index) => `Feed ${String(index + 1).padStart(2, '0')}`),
];
const SORTED = [...LABELS].sort();

/**
 * A list that scales, in Debian's Chromium at a desktop and a phone width: the integrations page pages, searches and
 * sorts on the server, by the accessible names a person uses, and the address keeps the view.
 */
describe('Lists in the administration UI, in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;

  const table = () => page.getByRole('table', { name: 'Integrations' });
  /** The labels shown, in order, once they are what `check` waits for. */
  const labelsUntil = (what: string, check: (labels: string[]) => boolean) =>
    eventually(what, async () => {
      if ((await table().getAttribute('aria-busy')) === 'true') return undefined;
      const labels = await table().locator('tbody td[data-label="Label"]').allInnerTexts();
      return check(labels) ? labels : undefined;
    });
  const query = () => Object.fromEntries(new URL(page.url()).searchParams);

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    t = await startTestApp();
    await t.http
      .post('/api/roles')
      .send({ name: 'feed-reader', permissions: ['product:read'] })
      .expect(201);
    for (const label of LABELS) await t.http.post('/api/integrations').send({ label, role: 'feed-reader' }).expect(201);
    browser = await openBrowser();
    page = await openPageAt(browser, WIDTHS[0]);
    await page.goto(`${t.url}/admin/`);
    await signInToAdmin(page, 'admin', ADMIN_PASSWORD);
    await page.getByRole('heading', { level: 1, name: 'Integrations' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close({ destroy: true });
  });

  it.each(WIDTHS)('pages, searches and sorts the integrations at %i px', async (width) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${t.url}/admin/settings/system/integrations`);
    const pages = page.getByRole('navigation', { name: 'Pages' });

    expect(await labelsUntil('the first page', (labels) => labels.length === 20)).toEqual(LABELS.slice(0, 20));
    expect(await pages.innerText()).toContain('1–20 of 25');
    await pages.getByRole('button', { name: 'Next' }).click();
    expect(await labelsUntil('the second page', (labels) => labels.length === 5)).toEqual(LABELS.slice(20));
    expect(query()).toEqual({ offset: '20' });
    await page.screenshot({ path: join(SHOTS, `integrations-page-2-${width}.png`), fullPage: true });

    const search = page.getByRole('searchbox', { name: 'Search integrations' });
    await search.fill('WAREHOUSE');
    expect(await labelsUntil('one match', (labels) => labels.length === 1)).toEqual(['Warehouse sync']);
    expect(query()).toEqual({ q: 'WAREHOUSE' });
    await search.fill('no such integration');
    await page.getByText('Nothing matches “no such integration”').waitFor();
    await search.fill('');
    await labelsUntil('the first page again', (labels) => labels.length === 20);

    const heading = page.getByRole('columnheader', { name: 'Label' });
    expect(await heading.getAttribute('aria-sort')).toBe('none');
    await heading.getByRole('button', { name: 'Label' }).click();
    expect(await labelsUntil('label order', (labels) => labels[0] === 'Feed 01')).toEqual(SORTED.slice(0, 20));
    expect([await heading.getAttribute('aria-sort'), query()]).toEqual(['ascending', { sort: 'label' }]);
    await heading.getByRole('button', { name: 'Label' }).click();
    expect(await labelsUntil('reverse label order', (labels) => labels[0] === 'Warehouse sync')).toEqual(
      [...SORTED].reverse().slice(0, 20),
    );
    expect([await heading.getAttribute('aria-sort'), query()]).toEqual(['descending', { sort: '-label' }]);
    await page.screenshot({ path: join(SHOTS, `integrations-sorted-${width}.png`), fullPage: true });

    // The address is the view: a reload shows the same order, and Back the previous one.
    await page.reload();
    expect((await labelsUntil('the same order', (labels) => labels[0] === 'Warehouse sync')).length).toBe(20);
    await page.goBack();
    await labelsUntil('label order again', (labels) => labels[0] === 'Feed 01');
    expect(query()).toEqual({ sort: 'label' });
  });
});
