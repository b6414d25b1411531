import { createHash, randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { fillServiceSignIn } from '../../test/support/admin-sign-in.js';
import { PARTNER_CALLBACK } from './seed-accounts.js';

/** One screenshot: where to go, at which width, and what the page must show before it is taken. */
export interface Shot {
  /** The file name, without `.png`. */
  name: string;
  width: number;
  /** The whole page rather than the first 800 pixels. */
  fullPage?: boolean;
  /** Opens the page and waits until it shows what the picture is about. */
  open(page: Page, base: string): Promise<void>;
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name }).waitFor();
const firstRow = (page: Page) => page.locator('tbody tr').first().waitFor();

/** Goes to a page of the interface and waits for its heading and first row. */
function listPage(path: string, title: string) {
  return async (page: Page, base: string) => {
    await page.goto(`${base}/admin${path}`);
    await heading(page, title);
    await firstRow(page);
  };
}

/** Account › Connected applications, with the consent the seed gave. */
const connectedApps = listPage('/account/applications', 'Connected applications');

/**
 * The consent page of the partner portal (a registered application asking for more than its default), reached by
 * signing in on the service's sign-in page as `user`; nothing is pressed there, so no consent is given.
 */
function consentPage(partnerId: string, user: { username: string; password: string }) {
  return async (page: Page, base: string) => {
    const verifier = randomBytes(32).toString('base64url');
    const target = new URL('/api/oauth/authorize', base);
    const params = {
      response_type: 'code',
      client_id: partnerId,
      redirect_uri: PARTNER_CALLBACK,
      scope: 'product:read product:write',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'screenshots',
    };
    for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
    await page.goto(target.href);
    await fillServiceSignIn(page, user.username, user.password);
    await heading(page, 'Allow Partner portal?');
  };
}

/** What the administrator's screenshots show, given the ids the seed created and how the administrator signs in. */
export function adminShots(ids: {
  productId: number;
  failingWebhookId: number;
  partnerId: string;
  admin: { username: string; password: string };
}): Shot[] {
  const consent = consentPage(ids.partnerId, ids.admin);
  const product = async (page: Page, base: string) => {
    await page.goto(`${base}/admin/content/product/${ids.productId}`);
    await heading(page, 'Brass desk lamp');
    await page.getByRole('listitem', { name: /desk-lamp-data-sheet\.pdf/ }).waitFor();
  };
  return [
    { name: 'integrations', width: 1280, open: listPage('/settings/system/integrations', 'Integrations') },
    { name: 'applications', width: 1280, open: listPage('/settings/system/applications', 'Applications') },
    {
      name: 'applications',
      width: 375,
      fullPage: true,
      open: listPage('/settings/system/applications', 'Applications'),
    },
    { name: 'connected-applications', width: 1280, open: connectedApps },
    { name: 'connected-applications', width: 375, fullPage: true, open: connectedApps },
    { name: 'consent', width: 1280, open: consent },
    { name: 'consent', width: 375, fullPage: true, open: consent },
    {
      name: 'role-editor',
      width: 1280,
      open: async (page, base) => {
        await listPage('/settings/system/roles', 'Roles')(page, base);
        await page
          .getByRole('row', { name: /catalog-editor/ })
          .getByRole('button', { name: 'Edit' })
          .click();
        await page.getByRole('dialog', { name: 'Edit role' }).waitFor();
      },
    },
    { name: 'users', width: 1280, open: listPage('/settings/system/users', 'Users') },
    { name: 'webhooks', width: 1280, open: listPage('/settings/system/webhooks', 'Webhooks') },
    {
      name: 'webhook-deliveries',
      width: 1280,
      fullPage: true,
      open: async (page, base) => {
        await page.goto(`${base}/admin/settings/system/webhooks/${ids.failingWebhookId}`);
        await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
        await firstRow(page);
        // The newest delivery opened on its attempts (status, duration, the receiver's answer).
        await page.getByRole('button', { name: 'Details' }).first().click();
        await page.getByText('ERP maintenance window').first().waitFor();
      },
    },
    {
      name: 'audit-log',
      width: 1280,
      open: listPage('/settings/system/audit?target_type=integration', 'Audit log'),
    },
    { name: 'products', width: 1280, open: listPage('/content/product', 'Products') },
    { name: 'product', width: 1280, fullPage: true, open: product },
    { name: 'products', width: 375, fullPage: true, open: listPage('/content/product', 'Products') },
    { name: 'product', width: 375, fullPage: true, open: product },
  ];
}

/** The catalog editor's view: only the content sections in the navigation; its connected application. */
export const editorShots: Shot[] = [
  { name: 'editor-navigation', width: 1280, open: listPage('/content/product', 'Products') },
  { name: 'editor-connected-applications', width: 375, fullPage: true, open: connectedApps },
];
