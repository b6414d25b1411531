import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { ADMIN_UI_DIST } from '../src/admin-ui/admin-ui.js';
import { basic } from './support/admin-api.js';
import { recordTokenGrants, signInToAdmin } from './support/admin-sign-in.js';
import { openBrowser } from './support/browser.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './support/wait.js';
import { startReceiver, type TestReceiver } from './support/webhook-receiver.js';

/** Where the screenshots of each page go (CI keeps test-results/ as artifacts). */
const SHOTS = join(process.cwd(), 'test-results', 'admin-ui');
const WIDTHS = [1280, 375] as const;

/** A square PNG of one colour: two of them are two different images. */
const square = (r: number, g: number, b: number) =>
  sharp({ create: { width: 64, height: 64, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

/**
 * The administration UI at /admin, in Debian's Chromium, against the real service on its own database: every step a
 * person takes, checked through the public API as well.
 */

describe('The administration UI, in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let receiver: TestReceiver;
  /** The grant_type of each token request the UI made. */
  let grants: string[];

  const api = (path: string) => t.http.get(path).expect(200);
  const nav = () => page.getByRole('navigation', { name: 'Main' });
  /** Screenshots of the page as it is now, at 1280 and 375 px wide. */
  const shoot = async (name: string) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  };
  const go = async (link: string) => {
    await nav().getByRole('link', { name: link, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: link }).waitFor();
  };
  const dialog = () => page.getByRole('dialog');

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    receiver = await startReceiver();
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL: '50ms' });
    browser = await openBrowser();
    context = await browser.newContext({ viewport: { width: WIDTHS[0], height: 900 } });
    page = await context.newPage();
    // A step that cannot find what it looks for fails in seconds, not at the test's timeout.
    page.setDefaultTimeout(10_000);
    grants = recordTokenGrants(page);
    // Any script error on a page fails the run.
    page.on('pageerror', (error) => {
      throw error;
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close({ destroy: true });
    await receiver?.close();
  });

  it('serves the interface under a strict Content-Security-Policy, never in a frame', async () => {
    const script = page.waitForResponse((res) => /\/admin\/assets\/.+\.js$/.test(res.url()));
    const response = await page.goto(`${t.url}/admin/`);
    expect(response?.status()).toBe(200);
    const headers = response!.headers();
    expect(headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['cache-control']).toBe('no-cache');
    expect((await script).headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await shoot('sign-in');
  });

  it('loads less than 300 KB gzipped on the first visit', async () => {
    const page = await readFile(join(ADMIN_UI_DIST, 'index.html'), 'utf8');
    const assets = [...page.matchAll(/(?:src|href)="\/admin\/(assets\/[^"]+)"/g)].map((match) => match[1]);
    expect(assets.some((asset) => asset.endsWith('.js'))).toBe(true);
    const sizes = await Promise.all(
      [page, ...assets].map(
        async (file) => gzipSync(file === page ? page : await readFile(join(ADMIN_UI_DIST, file))).byteLength,
      ),
    );
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThan(300 * 1024);
  });

  it("refuses a wrong password on the service's sign-in page with a readable message", async () => {
    await signInToAdmin(page, 'admin', 'wrong password');
    await expect(page.getByRole('alert').innerText()).resolves.toBe('Wrong username or password.');
    await shoot('service-sign-in-refused');
  });

  it('signs in by the authorization code flow, keeps no token but the refresh token, and stays signed in across a reload', async () => {
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Integrations' }).waitFor();
    expect(grants).toEqual(['authorization_code']);
    const stored = await page.evaluate(() => ({ session: { ...sessionStorage }, local: { ...localStorage } }));
    expect(Object.keys(stored.session)).toEqual(['admin.refresh_token']);
    expect(stored.local).toEqual({});
    expect(page.url()).toBe(`${t.url}/admin/settings/system/integrations`);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Integrations' }).waitFor();
    for (const link of ['Integrations', 'Roles', 'Users', 'Webhooks', 'Products', 'Articles']) {
      await expect(nav().getByRole('link', { name: link, exact: true }).isVisible()).resolves.toBe(true);
    }
    expect(grants).toEqual(['authorization_code', 'refresh_token']);
  });

  it('creates a role with the permission picker', async () => {
    await go('Roles');
    await page.getByRole('button', { name: 'Add role' }).click();
    await dialog().getByLabel('Name').fill('catalog-reader');
    await dialog().getByRole('checkbox', { name: 'product:read' }).check();
    await dialog().getByRole('button', { name: 'Create' }).click();
    await page.getByRole('row', { name: /catalog-reader/ }).waitFor();
    const roles = (await api('/api/roles?q=catalog-reader')).body.items as Array<{
      name: string;
      permissions: string[];
    }>;
    expect(roles.find((role) => role.name === 'catalog-reader')?.permissions).toEqual(['product:read']);
    await shoot('roles');
  });

  let accessKeyId: string;
  let secret: string;

  it('creates an integration and shows its secret once; the secret obtains a token that works', async () => {
    await go('Integrations');
    await shoot('integrations-empty');
    await page.getByRole('button', { name: 'Add integration' }).click();
    await dialog().getByLabel('Label').fill('ERP');
    await dialog().getByLabel('Role').selectOption({ label: 'catalog-reader' });
    await dialog().getByRole('button', { name: 'Create' }).click();
    accessKeyId = await dialog().getByRole('textbox', { name: 'Access key ID' }).inputValue();
    secret = await dialog().getByRole('textbox', { name: 'Secret access key' }).inputValue();
    expect(
      await dialog()
        .getByText(/will not be shown again/)
        .count(),
    ).toBeGreaterThan(0);
    await shoot('integration-secret');
    await dialog().getByRole('button', { name: 'Done' }).click();
    await page.getByRole('row', { name: /ERP/ }).waitFor();
    // Once: nothing on the page holds the secret any more.
    expect(await page.content()).not.toContain(secret);
    await shoot('integrations');

    const token = await fetch(`${t.url}/api/oauth/token`, {
      method: 'POST',
      headers: { Authorization: basic(accessKeyId, secret), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const products = await fetch(`${t.url}/products`, { headers: { Authorization: `Bearer ${access_token}` } });
    expect(products.status).toBe(200);
  });

  it('rotates the secret: the new one works, and the page says until when the old one does', async () => {
    const row = page.getByRole('row', { name: /ERP/ });
    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await dialog().getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = await dialog().getByRole('textbox', { name: 'New secret access key' }).inputValue();
    expect(rotated).not.toBe(secret);
    expect(await dialog().innerText()).toMatch(/previous secret keeps working until/i);
    await dialog().getByRole('button', { name: 'Done' }).click();
    const token = await fetch(`${t.url}/api/oauth/token`, {
      method: 'POST',
      headers: { Authorization: basic(accessKeyId, rotated), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(200);
  });

  it('lists users', async () => {
    await go('Users');
    await page.getByRole('row', { name: /admin/ }).first().waitFor();
    await shoot('users');
  });

  it('registers a webhook to a local receiver, pings it and shows the delivery', async () => {
    await go('Webhooks');
    await shoot('webhooks-empty');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await dialog().getByLabel('URL').fill(`${receiver.url}/hooks`);
    await dialog().getByRole('button', { name: 'Create' }).click();
    const signingSecret = await dialog().getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(signingSecret).toMatch(/^ffwh_/);
    await dialog().getByRole('button', { name: 'Done' }).click();
    await page.getByRole('link', { name: new RegExp(`${receiver.url}/hooks`) }).click();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await page.getByRole('button', { name: 'Send ping' }).click();
    const [ping] = await receiver.waitFor(1);
    expect(ping.body.event).toBe('webhook.ping');
    await eventually('the delivery to show as succeeded', async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return (await page.getByText(/succeeded/i).count()) > 0 || undefined;
    });
    await shoot('webhook');
  });

  it('uploads two images to a product by drag and drop, reorders them, and deletes one', async () => {
    const product = (await t.http.post('/products').send({ name: 'Lamp' }).expect(201)).body as { id: number };
    await go('Products');
    await shoot('products');
    await page.getByRole('link', { name: /Lamp/ }).click();
    await page.getByTestId('dropzone-gallery').waitFor();

    const images = [
      { name: 'red.png', base64: (await square(220, 30, 30)).toString('base64') },
      { name: 'blue.png', base64: (await square(30, 30, 220)).toString('base64') },
    ];
    // In the page: a DataTransfer holding the two files, as a drag from the desktop carries them.
    const transfer = await page.evaluateHandle((files) => {
      const dom = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } };
        File: new (bits: unknown[], name: string, options: { type: string }) => unknown;
        atob(base64: string): string;
      };
      const data = new dom.DataTransfer();
      for (const file of files) {
        const bytes = Uint8Array.from(dom.atob(file.base64), (c) => c.charCodeAt(0));
        data.items.add(new dom.File([bytes], file.name, { type: 'image/png' }));
      }
      return data;
    }, images);
    const zone = page.getByTestId('dropzone-gallery');
    await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
    await zone.dispatchEvent('dragover', { dataTransfer: transfer });
    await zone.dispatchEvent('drop', { dataTransfer: transfer });

    const gallery = async () =>
      ((await api(`/products/${product.id}`)).body as { gallery: Array<{ id: number; original_name?: string }> })
        .gallery;
    const uploaded = await eventually('both images to be stored', async () => {
      const files = await gallery();
      return files.length === 2 ? files : undefined;
    });
    await page.getByRole('listitem', { name: /blue\.png/ }).waitFor();
    await shoot('product');

    // Move the second image up (keyboard-free fallback button); the API shows the new order.
    await page
      .getByRole('listitem', { name: /blue\.png/ })
      .getByRole('button', { name: 'Move up' })
      .click();
    await eventually('the order to change', async () => {
      const ids = (await gallery()).map((file) => file.id);
      return ids[0] === uploaded[1].id && ids[1] === uploaded[0].id ? ids : undefined;
    });

    // Back with the keyboard: Space on the handle picks it up, an arrow moves it, Space drops it.
    await page.getByRole('button', { name: 'Reorder blue.png' }).focus();
    // dnd-kit measures the list between keys: let a frame or two pass.
    for (const key of ['Space', 'ArrowDown', 'Space']) {
      await page.keyboard.press(key);
      await page.waitForTimeout(150);
    }
    await eventually('the order set by keyboard to be stored', async () => {
      const ids = (await gallery()).map((file) => file.id);
      return ids[0] === uploaded[0].id ? ids : undefined;
    });
    // And up again by dragging the second by its handle onto the first.
    await page.getByRole('listitem', { name: /blue\.png/ }).waitFor();
    const from = (await page.getByRole('button', { name: 'Reorder blue.png' }).boundingBox())!;
    const to = (await page.getByRole('listitem', { name: /red\.png/ }).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 5, from.y + from.height / 2 - 5, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + 4, { steps: 15 });
    await page.mouse.up();
    await eventually('the dragged order to be stored', async () => {
      const ids = (await gallery()).map((file) => file.id);
      return ids[0] === uploaded[1].id ? ids : undefined;
    });

    await page
      .getByRole('listitem', { name: /red\.png/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await dialog().getByRole('button', { name: 'Delete' }).click();
    await eventually('one image to remain', async () => {
      const files = await gallery();
      return files.length === 1 && files[0].id === uploaded[1].id ? files : undefined;
    });
    await page.getByRole('listitem', { name: /red\.png/ }).waitFor({ state: 'detached' });
  });

  it('returns to the sign-in page with a message when the session can no longer be renewed', async () => {
    const refreshToken = await page.evaluate(() => sessionStorage.getItem('admin.refresh_token'));
    await page.evaluate(() =>
      sessionStorage.setItem('admin.refresh_token', 'a-refresh-token-the-service-never-issued'),
    );
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('status').innerText()).toMatch(/session has ended/i);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    // This tab's own sign-in is untouched: put it back.
    await page.evaluate((token) => sessionStorage.setItem('admin.refresh_token', token!), refreshToken);
    await page.reload();
    await page.getByRole('button', { name: 'Account: admin' }).waitFor();
  });

  it('signs out: back to the sign-in page, and the refresh token no longer works', async () => {
    const refreshToken = await page.evaluate(() => sessionStorage.getItem('admin.refresh_token'));
    expect(refreshToken).toBeTruthy();
    await page.getByRole('button', { name: 'Account: admin' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await eventually('the revocation to have reached the service', async () => {
      const answer = await fetch(`${t.url}/api/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: 'administration',
          refresh_token: refreshToken!,
        }).toString(),
      });
      return answer.status === 400 ? ((await answer.json()) as { error: string }) : undefined;
    }).then((body) => expect(body.error).toBe('invalid_grant'));
    expect(grants).not.toContain('password');
  });
});
