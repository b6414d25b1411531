import { mkdir } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { openBrowser } from './browser.js';
import { startTestApp, type TestApp } from './test-app.js';

/** The widths the administration UI's browser suites drive every flow at: a desktop window and a phone (issue 39). */
export const WIDTHS = [1280, 375] as const;

/** What an administration UI browser suite drives; set once its beforeAll has run. */
export interface AdminBrowserSuite {
  t: TestApp;
  browser: Browser;
}

/**
 * Registers the suite-wide hooks of an administration UI browser suite: its screenshot folder `shots` made, a fresh
 * app and a Chromium started before all tests, and both closed after them.
 */
export function adminBrowserSuite(shots: string): AdminBrowserSuite {
  const suite: Partial<AdminBrowserSuite> = {};
  beforeAll(async () => {
    await mkdir(shots, { recursive: true });
    suite.t = await startTestApp();
    suite.browser = await openBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.t?.close({ destroy: true });
  });
  return suite as AdminBrowserSuite;
}

/** Below this width the layout hides the main navigation behind its "Menu" button (admin/src/styles.css). */
const NARROW_BELOW = 768;

/** Whether the layout at `width` puts the main navigation behind the "Menu" button. */
export const isNarrow = (width: number): boolean => width < NARROW_BELOW;

/**
 * A page in a browser context of its own, so nothing a width signed in with (session storage, cookies) carries over
 * to the next; an uncaught script error on the page fails the run.
 */
export async function openPageAt(browser: Browser, width: number, height = 900): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => {
    throw error;
  });
  return page;
}

/** The main navigation, opened first from the "Menu" button as a person would where the layout hides it. */
export async function openMainNavigation(page: Page): Promise<Locator> {
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.waitFor();
  return nav;
}

/** Closes the main navigation where it covers the page (narrow widths); nothing to do where it is always shown. */
export async function closeMainNavigation(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu', exact: true });
  const nav = page.getByRole('navigation', { name: 'Main' });
  if (!(await menu.isVisible())) return nav.waitFor({ state: 'visible' });
  // The page may close the navigation itself after a link in it was followed, between our look and our click (which
  // would open it again): look again until it is closed, a bounded number of times.
  for (let attempt = 1; ; attempt++) {
    if ((await menu.getAttribute('aria-expanded')) === 'true') await menu.click();
    try {
      return await nav.waitFor({ state: 'hidden', timeout: 5_000 });
    } catch (error) {
      if (attempt === 4) throw error;
    }
  }
}

/** A full-page screenshot at `path`, and the check that nothing on the page is wider than the window. */
export async function shootAndCheckLayout(page: Page, path: string): Promise<void> {
  await page.screenshot({ path, fullPage: true });
  const overflow = await page.evaluate(() => {
    const dom = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
    return dom.document.documentElement.scrollWidth - dom.innerWidth;
  });
  // Named by the screenshot, so a failure says which page is too wide, and by how much.
  expect({ screenshot: path, overflowPx: Math.max(overflow, 0) }).toEqual({ screenshot: path, overflowPx: 0 });
}
