import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { signInToAdmin } from './support/admin-sign-in.js';
import { openBrowser } from './support/browser.js';
import {
  buildService,
  launchServiceProcess,
  startServiceProcess,
  type ServiceBuild,
  type ServiceProcess,
} from './support/service-process.js';
import { ADMIN_PASSWORD, createTestDatabase, passwordToken, type TestDatabase } from './support/test-app.js';
import { eventually } from './support/wait.js';

/** What `npm start` leaves to the defaults as far as the address goes (a developer's shell may set them). */
const ADDRESS_DEFAULTS = { HOST: undefined, OAUTH_ISSUER: undefined, LOG_LEVEL: 'info' };

/** The address a service process says it listens on, once it has said so. */
const loggedAddress = (service: ServiceProcess) =>
  eventually('the service to log its address', () => /Listening on (http:\/\/[^\s"]+)/.exec(service.output())?.[1]);

/**
 * The service started as `npm start` starts it (HOST and OAUTH_ISSUER unset), used at the address it logs: the
 * administration UI shows the images of the file URLs it is given, and Swagger UI's "Try it out" reaches the API.
 * Both also work when opened at another address of the same service (`localhost`): the file URLs still name the
 * logged address, and Swagger UI calls the address it was opened at.
 */
describe('One address: the service hands out the address it logs', () => {
  let build: ServiceBuild;
  let database: TestDatabase;
  let service: ServiceProcess;
  let address: string;
  let browser: Browser;
  let page: Page;
  /** What Chromium reported refusing under a page's Content-Security-Policy. */
  let refusals: string[];
  let adminToken: string;
  /** The file record of the image uploaded to the product the pages show. */
  let cover: Record<string, unknown>;

  const api = async (path: string, init: RequestInit = {}) => {
    const headers = { Authorization: `Bearer ${adminToken}`, ...init.headers };
    const res = await fetch(`${address}${path}`, { ...init, headers });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

  beforeAll(async () => {
    [build, database] = await Promise.all([buildService('one-address'), createTestDatabase()]);
    service = await startServiceProcess(build, database, ADDRESS_DEFAULTS);
    address = await loggedAddress(service);
    adminToken = (await passwordToken(address, 'admin', ADMIN_PASSWORD)).access_token;
    const product = await api('/products', json({ name: 'Desk lamp' }));
    const form = new FormData();
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'lamp.png');
    cover = await api(`/files/product/${String(product.id)}/cover`, { method: 'POST', body: form });
    browser = await openBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
    await build?.remove();
    await database?.drop();
  });
  beforeEach(async () => {
    page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    refusals = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
    });
  });
  afterEach(async () => {
    expect(refusals).toEqual([]);
    await page.close();
  });

  it('logs the loopback address by default, and names it as the issuer', async () => {
    expect(address).toBe(`http://127.0.0.1:${service.port}`);
    const metadata = await api('/.well-known/oauth-authorization-server');
    expect(metadata).toMatchObject({ issuer: address, token_endpoint: `${address}/api/oauth/token` });
  });

  it('hands out file URLs on that address', () => {
    expect(cover.url).toMatch(onAddress(address));
  });

  /** Where the pages are opened: the logged address, and the same service by name. */
  const HOSTS = ['127.0.0.1', 'localhost'];

  it.each(HOSTS)('/admin at http://%s:PORT shows the product image from the file URLs', async (host) => {
    const at = address.replace('127.0.0.1', host);
    await page.goto(`${at}/admin/`);
    await signInToAdmin(page, 'admin', ADMIN_PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products', exact: true }).click();
    await page.getByRole('link', { name: /Desk lamp/ }).waitFor();
    await expectImagesShown(page, address);
    await page.getByRole('link', { name: /Desk lamp/ }).click();
    await page.getByRole('listitem', { name: /lamp\.png/ }).waitFor();
    await expectImagesShown(page, address);
  });

  it.each(HOSTS)('/api/docs at http://%s:PORT: Authorize, and "Try it out" answers 200', async (host) => {
    const at = address.replace('127.0.0.1', host);
    await api('/api/roles', json({ name: `docs-reader-${HOSTS.indexOf(host)}`, permissions: ['product:read'] }));
    const integration = await api(
      '/api/integrations',
      json({ label: 'docs', role: `docs-reader-${HOSTS.indexOf(host)}` }),
    );
    await page.goto(`${at}/api/docs`);
    await page
      .getByRole('button', { name: /Authorize/ })
      .first()
      .click();
    await page.locator('#client_id_clientCredentials').fill(String(integration.access_key_id));
    await page.locator('#client_secret_clientCredentials').fill(String(integration.secret_access_key));
    const flow = page
      .locator('#client_id_clientCredentials')
      .locator('xpath=ancestor::div[.//button[@aria-label="Apply given OAuth2 credentials"]][1]');
    const issued = page.waitForResponse((res) => res.url() === `${at}/api/oauth/token`);
    await flow.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click();
    expect((await issued).status()).toBe(200);
    await page.getByRole('button', { name: 'Remove authorization' }).first().waitFor();
    await page.locator('.modal-ux .close-modal').click();

    const operation = page.locator('#operations-products-listProducts');
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    const answered = page.waitForResponse((res) => res.url().startsWith(`${at}/products`));
    await operation.getByRole('button', { name: 'Execute' }).click();
    expect((await answered).status()).toBe(200);
    const shown = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await expect(shown.innerText()).resolves.toBe('200');
  });

  it('with PORT=0, names the port it took wherever it names its address', async () => {
    const other = await createTestDatabase();
    const free = await launchServiceProcess(build, { ...other.env, ...ADDRESS_DEFAULTS }, 0);
    try {
      const url = await loggedAddress(free);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
      const metadata = await eventually('the service to answer', () =>
        fetch(`${url}/.well-known/oauth-authorization-server`).then(
          async (res) => (res.ok ? ((await res.json()) as { issuer: string }) : undefined),
          () => undefined,
        ),
      );
      expect(metadata.issuer).toBe(url);
    } finally {
      await free.stop();
      await other.drop();
    }
  }, 60_000);
});

/** A file URL on `address`. */
const onAddress = (address: string) => new RegExp(`^${address.replaceAll('.', '\\.')}/files/`);

/** Every image on the page has loaded (so the policy let it) from a file URL on `address`. */
async function expectImagesShown(page: Page, address: string): Promise<void> {
  const images = page.locator('img');
  await images.first().waitFor();
  const state = () =>
    images.evaluateAll((nodes) =>
      nodes.map((node) => {
        const image = node as unknown as { src: string; complete: boolean; naturalWidth: number };
        return { src: image.src, complete: image.complete, naturalWidth: image.naturalWidth };
      }),
    );
  const shown = await eventually('the images to finish loading', async () => {
    const all = await state();
    return all.every((image) => image.complete) ? all : undefined;
  });
  for (const image of shown) {
    expect(image.src).toMatch(onAddress(address));
    expect(image.naturalWidth).toBeGreaterThan(0);
  }
}
