import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import type { Browser, Locator, Page } from 'playwright-core';
import { WebhookEndpoint as WebhookEndpointRow } from '../src/webhooks/entities/webhook-endpoint.entity.js';
import { signInToAdmin } from './support/admin-sign-in.js';
import { openPageAt, shootAndCheckLayout, WIDTHS } from './support/admin-widths.js';
import { openBrowser } from './support/browser.js';
import { ADMIN_PASSWORD, passwordToken, startTestApp, type TestApp } from './support/test-app.js';
import { eventually } from './support/wait.js';

const SHOTS = process.env.ADMIN_WEBHOOK_SHOTS ?? join(process.cwd(), 'test-results', 'admin-webhooks');
/** One receiver, registered twice: once per signature scheme. */
const SHARED_URL = 'http://127.0.0.1:9/hooks/shared';
/** An endpoint with every delivery setting away from its default. */
const ORDERED = {
  url: 'http://127.0.0.1:9/hooks/ordered',
  events: ['*'],
  signature_scheme: 'standard-v1a',
  ordering: 'per-entity',
  payload: 'thin',
  rate_limit: 5,
  auto_recover: true,
  description: 'Search index',
};
/** An endpoint the service has reported failing, still active: about to be disabled if it keeps failing. */
const FAILING_URL = 'http://127.0.0.1:9/hooks/failing';
const FAILING_SINCE = Date.parse('2026-11-20T08:00:00.000Z');
/** A user who may manage webhooks and nothing else (not rotate the service's signing key). */
const KEEPER = { username: 'hook-keeper', password: 'a-hook-keeper-password' };

/** The page's own globals, as far as these tests read them (the tests compile without the DOM library). */
interface PageGlobals {
  innerHeight: number;
  document: { activeElement: unknown; querySelector(selector: string): { href: string } | null };
}

/** As much of GET /api/webhooks/signing-keys as these tests read. */
interface SigningKey {
  kid: string;
  state: 'upcoming' | 'signing' | 'retired';
  activates_at: string;
  published_until: string | null;
}

/** As much of an endpoint as these tests read. */
interface Endpoint {
  id: number;
  url: string;
  signature_scheme: string;
  ordering: string;
  payload: string;
  rate_limit: number | null;
  auto_recover: boolean;
}

/**
 * The webhook list and form in Debian's Chromium, wide and narrow (issue 39, item 6): endpoints of one URL told apart
 * by their scheme and health, a search, and a refused URL whose cause shows at the URL field; how each endpoint is
 * sent to, in words, and a warning for one about to be disabled; the delivery settings in the form, a rate limit out
 * of range refused at its field; the public signing keys, rotated by an administrator and by nobody else.
 */
describe('The webhook pages, in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;

  /** The rows of the webhook list (cards when narrow); the signing keys are a table of their own. */
  const listRows = (on: Page = page) => on.getByRole('table', { name: 'Webhooks' }).locator('tbody tr');
  /** The list's rows (cards when narrow) that show `text`. */
  const rowsWith = (text: string, on: Page = page) => listRows(on).filter({ hasText: text });
  /** A date as the page writes it (in the browser's locale and time zone). */
  const shownDate = (on: Page, iso: string) => on.evaluate((value) => new Date(value).toLocaleString(), iso);
  const signingKeys = async () => (await t.http.get('/api/webhooks/signing-keys').expect(200)).body as SigningKey[];
  const endpointsAt = async (url: string) =>
    (
      (await t.http.get(`/api/webhooks?limit=100&q=${encodeURIComponent(url)}`).expect(200)).body as {
        items: Endpoint[];
      }
    ).items;
  /** The Webhooks page at `width`, in a context of its own, signed in as `username`. */
  const signedInPage = async (width: number, username: string, password: string) => {
    const own = await openPageAt(browser, width, 800);
    await own.goto(`${t.url}/admin/settings/system/webhooks`);
    await signInToAdmin(own, username, password);
    await own.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    return own;
  };
  /** The page's signing keys panel, once it lists at least `count` keys. */
  const keysPanel = async (on: Page, count = 1) => {
    const panel = on.getByRole('region', { name: 'Public signing keys' });
    const rows = panel.getByRole('table', { name: 'Public signing keys' }).locator('tbody tr');
    await eventually(`${count} signing keys shown`, async () => ((await rows.count()) >= count ? true : undefined));
    return { panel, rows };
  };
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
    await t.http.post('/api/webhooks').send(ORDERED).expect(201);
    const failing = await t.http
      .post('/api/webhooks')
      .send({ url: FAILING_URL, events: ['*'], description: 'Failing receiver' })
      .expect(201);
    // Reported failing a day after its deliveries started failing (WEBHOOK_WARN_AFTER), as the dispatcher marks it:
    // with the dispatcher off here, nothing else sends or changes it (webhooks-recovery covers the marking itself).
    await t.dataSource
      .getRepository(WebhookEndpointRow)
      .update(failing.body.id as number, { failingSince: FAILING_SINCE, warnedAt: FAILING_SINCE + 86_400_000 });
    await t.http
      .post('/api/roles')
      .send({ name: 'webhook-keeper', permissions: ['webhook:write'] })
      .expect(201);
    await t.http
      .post('/api/users')
      .send({ ...KEEPER, role: 'webhook-keeper' })
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
    await eventually('only the ERP endpoint', async () => (await listRows().count()) === 1 || undefined);
    expect(await listRows().innerText()).toContain('ERP export');
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
  it.each(WIDTHS)(
    'says how each endpoint is sent to, and warns of the one about to be disabled, at %i px',
    async (width) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${t.url}/admin/settings/system/webhooks`);
      const ordered = rowsWith(ORDERED.url);
      await ordered.waitFor();
      const words = await ordered.innerText();
      for (const expected of [
        'Standard Webhooks, public key',
        'In order, item by item',
        'Notice only',
        'At most 5 deliveries a second',
        'If disabled, re-enables itself',
      ])
        expect(words).toContain(expected);
      // The defaults, said as plainly.
      const plain = await rowsWith('ERP export').innerText();
      for (const expected of [
        'GitHub style',
        'As soon as possible',
        'Full details',
        'No rate limit',
        'If disabled, enabled again by hand',
      ])
        expect(plain).toContain(expected);

      const warning = rowsWith(FAILING_URL).getByText('the service will disable it if it keeps failing');
      await expect(warning.innerText()).resolves.toBe(
        `⚠ Failing since ${await shownDate(page, new Date(FAILING_SINCE).toISOString())}: the service will disable ` +
          'it if it keeps failing.',
      );
      await expect(warning.isVisible()).resolves.toBe(true);
      // Only the endpoint reported failing is warned about.
      const warned = await listRows().filter({ hasText: 'will disable it' }).allInnerTexts();
      expect(warned).toHaveLength(1);
      expect(warned[0]).toContain(FAILING_URL);
      await shootAndCheckLayout(page, join(SHOTS, `modes-admin-${width}.png`));
    },
  );

  it.each(WIDTHS)("shows an endpoint's delivery settings in words on its page, at %i px", async (width) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`${t.url}/admin/settings/system/webhooks`);
    await rowsWith(ORDERED.url).getByRole('link', { name: ORDERED.url }).click();
    const settings = page.getByRole('region', { name: 'Settings' });
    await settings.waitFor();
    const text = await settings.innerText();
    expect(text).toMatch(/Signature scheme\s+Standard Webhooks, public key/);
    expect(text).toMatch(/Order of events\s+In order, item by item/);
    expect(text).toMatch(/Content of events\s+Notice only/);
    expect(text).toMatch(/Rate limit\s+At most 5 deliveries a second/);
    expect(text).toMatch(/Recovery\s+If disabled, re-enables itself/);
    await shootAndCheckLayout(page, join(SHOTS, `detail-admin-${width}.png`));

    await page.getByRole('link', { name: '← All webhooks' }).click();
    await rowsWith(FAILING_URL).getByRole('link', { name: FAILING_URL }).click();
    const note = page.getByRole('note').filter({ hasText: 'This endpoint is failing.' });
    await expect(note.innerText()).resolves.toContain(
      `Failing since ${await shownDate(page, new Date(FAILING_SINCE).toISOString())}: the service will disable it if ` +
        'it keeps failing.',
    );
    await expect(page.getByRole('region', { name: 'Settings' }).innerText()).resolves.toMatch(/Reported failing\s+\S/);
    await shootAndCheckLayout(page, join(SHOTS, `detail-failing-admin-${width}.png`));
  });

  it.each(WIDTHS)('refuses a rate limit beyond what the API allows at its field, in view, at %i px', async (width) => {
    const document = (await request(t.url).get('/api/docs-json').expect(200)).body as {
      components: { schemas: Record<string, { properties: Record<string, { maximum?: number }> }> };
    };
    const maximum = document.components.schemas.CreateWebhook.properties.rate_limit.maximum;
    expect(maximum).toEqual(expect.any(Number));
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`${t.url}/admin/settings/system/webhooks`);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook' });
    const url = `http://127.0.0.1:9/hooks/limited-${width}`;
    await dialog.getByLabel('URL', { exact: true }).fill(url);
    const limit = dialog.getByLabel('Rate limit', { exact: true });
    await limit.fill(String(maximum! + 1));
    await dialog.getByRole('button', { name: 'Create' }).click();

    const cause = dialog.getByText('Enter a whole number of deliveries a second, from 1 to 10,000');
    await cause.waitFor();
    expect(await limit.getAttribute('aria-invalid')).toBe('true');
    const focused = (element: unknown) => element === (globalThis as unknown as PageGlobals).document.activeElement;
    expect(await limit.evaluate(focused)).toBe(true);
    await expect(inView(limit)).resolves.toBe(true);
    await expect(inView(cause)).resolves.toBe(true);
    await page.screenshot({ path: join(SHOTS, `rate-limit-error-${width}.png`) });
    expect(await endpointsAt(url)).toEqual([]);

    // The most the API takes is what the form takes too.
    await limit.fill(String(maximum));
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('dialog', { name: 'Webhook added' }).getByRole('button', { name: 'Done' }).click();
    expect((await endpointsAt(url)).map((endpoint) => endpoint.rate_limit)).toEqual([maximum]);
  });

  it('registers an endpoint with the delivery settings chosen, then changes them', async () => {
    await page.setViewportSize({ width: WIDTHS[0], height: 800 });
    await page.goto(`${t.url}/admin/settings/system/webhooks`);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('dialog', { name: 'Add webhook' });
    const url = 'http://127.0.0.1:9/hooks/chosen';
    await form.getByLabel('URL', { exact: true }).fill(url);
    await form.getByRole('radio', { name: 'Standard Webhooks, secret and public key', exact: true }).check();
    await form.getByRole('radio', { name: 'In order, item by item', exact: true }).check();
    await form.getByRole('radio', { name: 'Notice only', exact: true }).check();
    await form.getByLabel('Rate limit', { exact: true }).fill('12');
    await form.getByRole('checkbox', { name: 'Re-enable by itself after failing', exact: true }).check();
    await form.getByRole('button', { name: 'Create' }).click();
    const added = page.getByRole('dialog', { name: 'Webhook added' });
    await expect(added.getByRole('textbox', { name: 'Signing secret' }).inputValue()).resolves.toMatch(/^whsec_/);
    await added.getByRole('button', { name: 'Done' }).click();
    const [created] = await endpointsAt(url);
    expect(created).toMatchObject({
      signature_scheme: 'standard-v1-v1a',
      ordering: 'per-entity',
      payload: 'thin',
      rate_limit: 12,
      auto_recover: true,
    });

    await page.goto(`${t.url}/admin/settings/system/webhooks/${created.id}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit webhook' });
    await expect(edit.getByLabel('Rate limit', { exact: true }).inputValue()).resolves.toBe('12');
    await edit.getByRole('radio', { name: 'As soon as possible', exact: true }).check();
    await edit.getByLabel('Rate limit', { exact: true }).fill('');
    await edit.getByRole('checkbox', { name: 'Re-enable by itself after failing', exact: true }).uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    await expect(page.getByRole('region', { name: 'Settings' }).innerText()).resolves.toMatch(
      /Rate limit\s+No rate limit/,
    );
    expect(await endpointsAt(url)).toMatchObject([
      { ordering: 'none', payload: 'thin', rate_limit: null, auto_recover: false },
    ]);
  });

  it.each(WIDTHS)('shows the public signing keys and where receivers fetch them, at %i px', async (width) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`${t.url}/admin/settings/system/webhooks`);
    const published = await signingKeys();
    expect(published.map((key) => key.state)).toContain('signing');
    const { panel, rows } = await keysPanel(page, published.length);
    for (const key of published) {
      const row = rows.filter({ hasText: key.kid });
      const text = await row.innerText();
      expect(text).toContain({ upcoming: 'Upcoming', signing: 'Signing now', retired: 'Retired' }[key.state]);
      expect(text).toContain(await shownDate(page, key.activates_at));
    }
    const link = panel.getByRole('link', { name: /webhook-keys\.json$/ });
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toBe(`${t.url}/.well-known/webhook-keys.json`);
    const set = (await request(href).get('').expect(200)).body as { keys: Array<{ kid: string }> };
    expect(set.keys.map((key) => key.kid).sort()).toEqual(published.map((key) => key.kid).sort());
    await expect(panel.getByRole('button', { name: 'Rotate signing key' }).isVisible()).resolves.toBe(true);
    await shootAndCheckLayout(page, join(SHOTS, `keys-admin-${width}.png`));
  });

  it('lets an administrator rotate the signing key: a new key, upcoming, in the list and the key set', async () => {
    await page.setViewportSize({ width: WIDTHS[0], height: 800 });
    await page.goto(`${t.url}/admin/settings/system/webhooks`);
    const before = await signingKeys();
    const { panel, rows } = await keysPanel(page, before.length);
    await panel.getByRole('button', { name: 'Rotate signing key' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rotate the signing key?' });
    await confirm.waitFor();
    await page.screenshot({ path: join(SHOTS, 'rotate-confirm-1280.png') });
    expect((await signingKeys()).length).toBe(before.length);
    await confirm.getByRole('button', { name: 'Rotate signing key' }).click();

    const status = panel.getByRole('status');
    await status.getByText('New key').waitFor();
    const after = await signingKeys();
    const added = after.filter((key) => !before.some((old) => old.kid === key.kid));
    expect(added).toHaveLength(1);
    expect(added[0].state).toBe('upcoming');
    expect(await status.innerText()).toContain(
      `New key ${added[0].kid} published: it signs from ${await shownDate(page, added[0].activates_at)}`,
    );
    await eventually('the new key listed', async () => ((await rows.count()) === after.length ? true : undefined));
    await expect(rows.filter({ hasText: added[0].kid }).innerText()).resolves.toContain('Upcoming');
    const set = (await request(t.url).get('/.well-known/webhook-keys.json').expect(200)).body as {
      keys: Array<{ kid: string }>;
    };
    expect(set.keys.map((key) => key.kid)).toContain(added[0].kid);
  });

  it.each(WIDTHS)('shows a user who may only manage webhooks the keys, but no rotation, at %i px', async (width) => {
    const own = await signedInPage(width, KEEPER.username, KEEPER.password);
    try {
      await rowsWith(ORDERED.url, own).waitFor();
      const { panel, rows } = await keysPanel(own, (await signingKeys()).length);
      expect(await rows.count()).toBeGreaterThan(0);
      await panel.getByText('Only an administrator').waitFor();
      expect(await own.getByRole('button', { name: /Rotate/ }).count()).toBe(0);
      // The words and the warning are the same for them.
      await rowsWith(FAILING_URL, own).getByText('the service will disable it if it keeps failing').waitFor();
      await shootAndCheckLayout(own, join(SHOTS, `keys-webhook-keeper-${width}.png`));
      // Hidden because the service would refuse it.
      const { access_token } = await passwordToken(t.url, KEEPER.username, KEEPER.password);
      await request(t.url)
        .post('/api/webhooks/signing-keys/rotate')
        .set('Authorization', `Bearer ${access_token}`)
        .expect(403);

      await rowsWith(ORDERED.url, own).getByRole('link', { name: ORDERED.url }).click();
      await own.getByRole('region', { name: 'Settings' }).getByText('Notice only').waitFor();
      await shootAndCheckLayout(own, join(SHOTS, `detail-webhook-keeper-${width}.png`));
    } finally {
      await own.context().close();
    }
  });
});
