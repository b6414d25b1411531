import type { Browser, Page, Response } from 'playwright-core';
import { createIntegration, type CreatedIntegration } from './support/admin-api.js';
import { openBrowser } from './support/browser.js';
import { startTestApp, type TestApp } from './support/test-app.js';

describe('Swagger UI at /api/docs, in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  /** What Chromium reported refusing under the page's Content-Security-Policy (nothing Swagger UI needs may be). */
  let refusals: string[];

  beforeAll(async () => {
    t = await startTestApp();
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close({ destroy: true });
  });
  beforeEach(async () => {
    page = await browser.newPage();
    refusals = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
    });
    await page.goto(`${t.url}/api/docs`);
  });
  afterEach(async () => {
    expect(refusals).toEqual([]);
    await page.close();
  });

  /** Authorize › oauth2 (clientCredentials): the integration's key and secret; resolves with the token answer. */
  async function authorize(integration: CreatedIntegration): Promise<Response> {
    await page
      .getByRole('button', { name: /Authorize/ })
      .first()
      .click();
    await page.locator('#client_id_clientCredentials').fill(integration.access_key_id);
    await page.locator('#client_secret_clientCredentials').fill(integration.secret_access_key);
    // The client credentials flow: the nearest block around its fields that holds its own Authorize button.
    const flow = page
      .locator('#client_id_clientCredentials')
      .locator('xpath=ancestor::div[.//button[@aria-label="Apply given OAuth2 credentials"]][1]');
    const issued = page.waitForResponse((res) => res.url().endsWith('/api/oauth/token'));
    await flow.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click();
    const answer = await issued;
    // Swagger UI holds a token now: the flow offers to remove it.
    await page.getByRole('button', { name: 'Remove authorization' }).first().waitFor();
    await page.locator('.modal-ux .close-modal').click();
    return answer;
  }

  /** Opens an operation of the products tag, "Try it out", "Execute": the API's answer and the status shown. */
  async function tryItOut(operationId: string): Promise<{ response: Response; shown: string }> {
    const operation = page.locator(`#operations-products-${operationId}`);
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/products');
    await operation.getByRole('button', { name: 'Execute' }).click();
    const response = await answered;
    const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor();
    return { response, shown: (await status.innerText()).trim() };
  }

  it('authorizes with client credentials, and "Try it out" on GET /products answers 200', async () => {
    const integration = await createIntegration(t, ['product:read'], 'swagger ui');
    expect((await authorize(integration)).status()).toBe(200);
    const { response, shown } = await tryItOut('listProducts');
    expect(response.status()).toBe(200);
    expect(response.request().headers().authorization).toMatch(/^Bearer ey/);
    expect(shown).toBe('200');
  });

  it('without authorizing, "Try it out" shows the 401 the API answers', async () => {
    const { response, shown } = await tryItOut('listProducts');
    expect(response.status()).toBe(401);
    expect(shown).toBe('401');
  });
});
