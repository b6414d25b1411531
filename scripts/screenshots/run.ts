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
import { launchBrowser } from '../../test/support/browser.js';
import { apiWith, passwordToken } from './api.js';
import { OUT_DIR, ROOT } from './paths.js';
import { savePng } from './save-png.js';
import { seedAccounts, EDITOR } from './seed-accounts.js';
import { seedCatalog } from './seed-catalog.js';
import { seedWebhooks, settleDeliveries, startReceiver } from './seed-webhooks.js';
import { ADMIN_PASSWORD, startService } from './service.js';
import { adminShots, editorShots, type Shot } from './shots.js';

const HEIGHT = 800;

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
    const accounts = await seedAccounts(admin);
    const webhooks = await seedWebhooks(admin, receiver);
    const catalog = await seedCatalog(admin, apiWith(service.url, accounts.erpToken));
    await settleDeliveries(admin);

    browser = await launchBrowser();
    const shots = adminShots({ productId: catalog.productId, failingWebhookId: webhooks.failingId });
    const sizes = await shoot(browser, service.url, 'admin', ADMIN_PASSWORD, shots);
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

/** Signs in as one user in a context of its own and saves each shot; the files and their sizes. */
async function shoot(
  browser: Browser,
  base: string,
  username: string,
  password: string,
  shots: Shot[],
): Promise<Array<[string, number]>> {
  const context = await browser.newContext({ viewport: { width: 1280, height: HEIGHT }, colorScheme: 'light' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  await page.goto(`${base}/admin/`);
  await signInToAdmin(page, username, password);
  await page.getByRole('button', { name: `Account: ${username}` }).waitFor();
  const sizes: Array<[string, number]> = [];
  for (const shot of shots) {
    await page.setViewportSize({ width: shot.width, height: HEIGHT });
    await shot.open(page, base);
    await settle(page);
    const file = join(OUT_DIR, `admin-${shot.name}-${shot.width}.png`);
    sizes.push([file, await savePng(await page.screenshot({ fullPage: shot.fullPage }), file)]);
  }
  await context.close();
  if (errors.length > 0) throw new Error(`The page threw: ${errors.map((error) => error.message).join('; ')}`);
  return sizes;
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
