/**
 * `npm run screenshots`: the administration UI's main pages as PNGs in docs/images/ (docs/admin-ui.md shows them).
 * Starts the built service on a fresh SQLite database and disk storage, seeds a small shop through the API, signs in
 * through the service's sign-in page in Debian's Chromium (CHROMIUM_PATH), and saves each page as a palette PNG.
 * SCREENSHOTS_DIR writes them elsewhere.
 */
import { mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { signInToAdmin } from '../../test/support/admin-sign-in.js';
import { openBrowser } from '../../test/support/browser.js';
import { apiWith, passwordToken } from './api.js';
import { OUT_DIR, ROOT } from './paths.js';
import { savePng } from './save-png.js';
import { seedAccounts, EDITOR } from './seed-accounts.js';
import { seedCatalog } from './seed-catalog.js';
import { seedWebhooks, settleDeliveries, startReceiver } from './seed-webhooks.js';
import { ADMIN_PASSWORD, startService } from './service.js';
import { adminShots, editorShots, type Shot } from './shots.js';

const HEIGHT = 800;
/** The widths at which the service's sign-in page, where an unsigned visit lands, is shot. */
const SIGN_IN_WIDTHS = [1280, 375];

async function main(): Promise<void> {
  await mkdir(OUT_DIR, { recursive: true });
  const receiver = await startReceiver();
  const service = await startService({
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    // Failing deliveries end within seconds, so the log shows them failed rather than waiting for a retry.
    WEBHOOK_RETRY_SCHEDULE: '500ms,1s',
    WEBHOOK_POLL_INTERVAL: '200ms',
  });
  let browser: Browser | undefined;
  try {
    const admin = apiWith(service.url, await passwordToken(service.url, 'admin', ADMIN_PASSWORD));
    const accounts = await seedAccounts(admin, ADMIN_PASSWORD);
    const webhooks = await seedWebhooks(admin, receiver);
    const catalog = await seedCatalog(admin, apiWith(service.url, accounts.erpToken));
    await settleDeliveries(admin);

    browser = await openBrowser();
    const shots = adminShots({
      productId: catalog.productId,
      failingWebhookId: webhooks.failingId,
      partnerId: accounts.partnerId,
      admin: { username: 'admin', password: ADMIN_PASSWORD },
    });
    const sizes = await shoot(browser, service.url, 'admin', ADMIN_PASSWORD, shots, SIGN_IN_WIDTHS);
    sizes.push(...(await shoot(browser, service.url, EDITOR.username, EDITOR.password, editorShots)));
    const total = sizes.reduce((sum, [, bytes]) => sum + bytes, 0);
    for (const [file, bytes] of sizes) console.log(`${relative(ROOT, file)}  ${Math.round(bytes / 1024)} KiB`);
    console.log(`${sizes.length} screenshots, ${(total / 1024 / 1024).toFixed(2)} MiB in all`);
  } finally {
    await browser?.close();
    await service.stop();
    await receiver.close();
  }
}

/**
 * Signs in as one user in a context of its own and saves each shot; the files and their sizes. The sign-in page the
 * unsigned visit lands on is saved first at each of `signInWidths`.
 */
async function shoot(
  browser: Browser,
  base: string,
  username: string,
  password: string,
  shots: Shot[],
  signInWidths: number[] = [],
): Promise<Array<[string, number]>> {
  const context = await browser.newContext({ viewport: { width: 1280, height: HEIGHT }, colorScheme: 'light' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  await page.goto(`${base}/admin/`);
  const sizes: Array<[string, number]> = [];
  for (const width of signInWidths) {
    await page.setViewportSize({ width, height: HEIGHT });
    await page.waitForURL((url) => url.pathname === '/api/oauth/authorize');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await settle(page);
    await noSidewaysScroll(page, width);
    const file = join(OUT_DIR, `admin-sign-in-${width}.png`);
    sizes.push([file, await savePng(await page.screenshot({ fullPage: true }), file)]);
  }
  await page.setViewportSize({ width: 1280, height: HEIGHT });
  await signInToAdmin(page, username, password);
  await page.getByRole('button', { name: `Account: ${username}` }).waitFor();
  for (const shot of shots) {
    await page.setViewportSize({ width: shot.width, height: HEIGHT });
    await shot.open(page, base);
    await settle(page);
    await noSidewaysScroll(page, shot.width);
    const file = join(OUT_DIR, `admin-${shot.name}-${shot.width}.png`);
    sizes.push([file, await savePng(await page.screenshot({ fullPage: shot.fullPage }), file)]);
  }
  await context.close();
  if (errors.length > 0) throw new Error(`The page threw: ${errors.map((error) => error.message).join('; ')}`);
  return sizes;
}

/** A page wider than the window (a long name in the top bar at 375 px, say) fails the run instead of being shot. */
async function noSidewaysScroll(page: Page, width: number): Promise<void> {
  const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
  if (wide > width) throw new Error(`${page.url()} is ${wide} px wide in a window of ${width} px`);
}

/** Waits until the page's requests are done, its images decoded and its fonts loaded; the pointer out of the way. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction('[...document.images].every((image) => image.complete)');
  await page.evaluate('document.fonts.ready');
  await page.mouse.move(0, 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
