import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { recordTokenGrants, signInToAdmin } from './support/admin-sign-in.js';
import { openBrowser } from './support/browser.js';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './support/test-app.js';
import { eventually, staysTrue } from './support/wait.js';

const SHOTS = process.env.ADMIN_UPLOADS_SHOTS ?? join(process.cwd(), 'test-results', 'admin-uploads');
const WIDTHS = [1280, 375] as const;
/** Bytes of each file: a few MiB, enough for a throttled upload to be caught in the middle. */
const SIZE = 4 * 1024 * 1024;
/** The upload speed while an upload is to be paused or broken off, in bytes per second (about 8 s for a file). */
const SLOW = 512 * 1024;

interface StoredFile {
  original_name: string;
  checksum_sha256: string;
}

/** A PDF as the service sniffs it (its magic number), of incompressible bytes; its path and SHA-256. */
async function pdfFile(dir: string, name: string) {
  const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(SIZE - 15), Buffer.from('\n%%EOF')]);
  const path = join(dir, name);
  await writeFile(path, bytes);
  return { name, path, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** What the tus requests of the page said: each HEAD's offset, each PATCH's starting offset, each DELETE's status. */
function recordTus(page: Page) {
  const heads: number[] = [];
  const patches: number[] = [];
  const deletes: number[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (!new URL(request.url()).pathname.startsWith('/files/uploads/')) return;
    if (request.method() === 'HEAD' && response.status() === 200) {
      heads.push(Number(response.headers()['upload-offset']));
    }
    if (request.method() === 'DELETE') deletes.push(response.status());
  });
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && new URL(request.url()).pathname.startsWith('/files/uploads/')) {
      patches.push(Number(request.headers()['upload-offset']));
    }
  });
  return { heads, patches, deletes };
}

/**
 * Uploads from the administration UI in Debian's Chromium, through Uppy and tus to the real service: a file listed
 * once stored; a throttled upload paused and resumed; a page reloaded mid-upload and the same file picked again,
 * which resumes from what the service holds. Each stored file's SHA-256 is the picked file's.
 */
describe.each(WIDTHS)('Uploads in the administration UI at %i px, in a real browser', (width) => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cdp: CDPSession;
  let dir: string;
  let productId: number;

  const gallery = async () =>
    ((await t.http.get(`/products/${productId}`).expect(200)).body as { gallery: StoredFile[] }).gallery;
  const stored = (name: string) =>
    eventually(`${name} to be stored`, async () => (await gallery()).find((file) => file.original_name === name));
  const throttle = (bytesPerSecond: number) =>
    cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    });
  const picker = () => page.getByLabel('Choose files for Gallery');
  const bar = (name: string) => page.getByRole('progressbar', { name: `Uploading ${name}` });
  const sent = (name: string) => bar(name).evaluate((element) => (element as unknown as { value: number }).value);
  const listed = (name: string) =>
    page.getByRole('list', { name: 'Files of Gallery' }).getByRole('listitem', { name }).waitFor({ timeout: 60_000 });
  const openProduct = async () => {
    await page.goto(`${t.url}/admin/content/product/${productId}`);
    await page.getByRole('heading', { level: 1, name: 'Upload desk' }).waitFor();
  };
  const shoot = async (name: string) => {
    await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    const overflow = await page.evaluate(() => {
      const dom = globalThis as unknown as {
        innerWidth: number;
        document: { documentElement: { scrollWidth: number } };
      };
      return dom.document.documentElement.scrollWidth - dom.innerWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
  };

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    dir = await mkdtemp(join(tmpdir(), 'admin-uploads-'));
    t = await startTestApp();
    productId = ((await t.http.post('/products').send({ name: 'Upload desk' }).expect(201)).body as { id: number }).id;
    browser = await openBrowser();
    context = await browser.newContext({ viewport: { width, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => {
      throw error;
    });
    // A script, style or request the admin's Content-Security-Policy refuses fails the run.
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) throw new Error(message.text());
    });
    cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await page.goto(`${t.url}/admin/`);
    await signInToAdmin(page, 'admin', ADMIN_PASSWORD);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await openProduct();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close({ destroy: true });
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('uploads a file of a few MiB, which the field then lists', async () => {
    const file = await pdfFile(dir, `manual-${width}.pdf`);
    await picker().setInputFiles(file.path);
    await listed(file.name);
    expect((await stored(file.name)).checksum_sha256).toBe(file.sha256);
    await bar(file.name).waitFor({ state: 'detached' });
  });

  it('pauses an upload and resumes it to completion from where the service stopped', async () => {
    const tus = recordTus(page);
    const file = await pdfFile(dir, `paused-${width}.pdf`);
    await throttle(SLOW);
    await picker().setInputFiles(file.path);
    await eventually('a tenth sent', async () => ((await sent(file.name)) > 0.1 ? true : undefined));
    await page.getByRole('button', { name: `Pause ${file.name}` }).click();
    await page.getByText('Paused', { exact: true }).waitFor();
    const pausedAt = await sent(file.name);
    await staysTrue('the bar to stand still while paused', async () => (await sent(file.name)) === pausedAt, 1000);
    await shoot('paused');

    await throttle(-1);
    await page.getByRole('button', { name: `Resume ${file.name}` }).click();
    await listed(file.name);
    expect((await stored(file.name)).checksum_sha256).toBe(file.sha256);
    // The resumed PATCH started where the HEAD said the service stood, past the bytes sent before the pause.
    expect(tus.heads.length).toBeGreaterThanOrEqual(1);
    expect(tus.heads.at(-1)).toBeGreaterThan(0);
    expect(tus.patches.at(-1)).toBe(tus.heads.at(-1));
    // A finished upload is let go of, not ended.
    expect(tus.deletes).toEqual([]);
  });

  it('cancels an upload, which the service then ends', async () => {
    const tus = recordTus(page);
    const file = await pdfFile(dir, `cancelled-${width}.pdf`);
    await throttle(SLOW);
    await picker().setInputFiles(file.path);
    await eventually('a tenth sent', async () => ((await sent(file.name)) > 0.1 ? true : undefined));
    await page.getByRole('button', { name: `Cancel ${file.name}` }).click();
    await bar(file.name).waitFor({ state: 'detached' });
    await throttle(-1);
    // Until the service has seen the broken PATCH end, it answers 423 and tus-js-client tries again.
    await eventually('the DELETE to succeed', () => (tus.deletes.includes(204) ? true : undefined), 15_000);
    expect(tus.deletes.filter((status) => status !== 423)).toEqual([204]);
    expect((await gallery()).map((stored) => stored.original_name)).not.toContain(file.name);
  });

  it("shows the service's refusal at the file: a PDF name on bytes that are no PDF", async () => {
    const path = join(dir, `fake-${width}.pdf`);
    await writeFile(path, randomBytes(64 * 1024));
    await picker().setInputFiles(path);
    const refusal = page.getByRole('list', { name: 'Uploads to Gallery' }).getByRole('alert');
    expect(await refusal.textContent()).toMatch(new RegExp(`^fake-${width}\\.pdf was not uploaded\\. .+: .+`));
    await shoot('refused');
    await page.getByRole('button', { name: `Dismiss fake-${width}.pdf` }).click();
    await refusal.waitFor({ state: 'detached' });
  });

  it('goes on with the same upload under a renewed token once the service refuses the old one', async () => {
    const file = await pdfFile(dir, `renewed-${width}.pdf`);
    await throttle(SLOW);
    await picker().setInputFiles(file.path);
    await eventually('a tenth sent', async () => ((await sent(file.name)) > 0.1 ? true : undefined));
    await page.getByRole('button', { name: `Pause ${file.name}` }).click();
    await page.getByText('Paused', { exact: true }).waitFor();

    // The next HEAD goes out with a token the service refuses, as if the page's had expired meanwhile.
    const heads: Array<{ token: string | undefined; status: number }> = [];
    const grants = recordTokenGrants(page);
    const tus = recordTus(page);
    const creations: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/files/product/')) creations.push(request.url());
    });
    let spoiled = false;
    await page.route(
      (url) => url.pathname.startsWith('/files/uploads/'),
      async (route) => {
        const request = route.request();
        if (request.method() !== 'HEAD' || spoiled) return route.continue();
        spoiled = true;
        await route.continue({ headers: { ...request.headers(), authorization: 'Bearer expired' } });
      },
    );
    page.on('response', (response) => {
      const request = response.request();
      if (request.method() !== 'HEAD' || !request.url().includes('/files/uploads/')) return;
      heads.push({ token: request.headers()['authorization'], status: response.status() });
    });
    await throttle(-1);
    await page.getByRole('button', { name: `Resume ${file.name}` }).click();
    await listed(file.name);
    await page.unroute((url) => url.pathname.startsWith('/files/uploads/'));

    expect(heads.map(({ status }) => status)).toEqual([401, 200]);
    expect(grants).toEqual(['refresh_token']);
    // The same upload went on from where it stood: no new one was created.
    expect(creations).toEqual([]);
    expect(tus.patches[0]).toBe(tus.heads[0]);
    expect(tus.heads[0]).toBeGreaterThan(0);
    expect((await stored(file.name)).checksum_sha256).toBe(file.sha256);
  });

  it('resumes after a reload once the same file is picked again', async () => {
    const file = await pdfFile(dir, `reloaded-${width}.pdf`);
    await throttle(SLOW);
    await picker().setInputFiles(file.path);
    await eventually('a fifth sent', async () => ((await sent(file.name)) > 0.2 ? true : undefined));

    await page.reload();
    const tus = recordTus(page);
    await page.getByRole('heading', { level: 1, name: 'Upload desk' }).waitFor();
    await picker().setInputFiles(file.path);
    const resuming = await page.getByText(/^Resuming at \d+%$/).textContent();
    expect(Number(/(\d+)%/.exec(resuming ?? '')?.[1])).toBeGreaterThan(0);
    await shoot('resuming');
    await throttle(-1);
    await listed(file.name);

    // The service already held bytes of the file before the resumed request, which went on from there.
    expect(tus.heads[0]).toBeGreaterThan(0);
    expect(tus.patches[0]).toBe(tus.heads[0]);
    expect((await stored(file.name)).checksum_sha256).toBe(file.sha256);
    // A finished upload's URL is forgotten: picking the file again would upload it anew.
    const kept = await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('tus::')));
    expect(kept).toEqual([]);
    expect((await gallery()).map((stored) => stored.original_name)).toEqual([
      `manual-${width}.pdf`,
      `paused-${width}.pdf`,
      `renewed-${width}.pdf`,
      `reloaded-${width}.pdf`,
    ]);
  });
});
