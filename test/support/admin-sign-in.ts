import type { Page } from 'playwright-core';

/**
 * Signs in to the administration UI the way a person does: on the service's own sign-in page of the authorization
 * code flow, which sends the browser back to /admin/callback. A first visit to the UI goes there by itself; after a
 * sign-out or an ended session, the UI's signed-out screen shows "Sign in", which is clicked. Resolves once the
 * credentials are sent; the caller waits for what it expects next.
 */
export async function signInToAdmin(page: Page, username: string, password: string): Promise<void> {
  const button = page.getByRole('button', { name: 'Sign in', exact: true });
  // The service's page has a button of the same name: the UI's is clicked only where the UI shows it.
  await button.waitFor();
  if (new URL(page.url()).pathname !== '/api/oauth/authorize') await button.click();
  await fillServiceSignIn(page, username, password);
}

/** Fills and sends the service's sign-in page (GET /api/oauth/authorize), once the browser shows it. */
export async function fillServiceSignIn(page: Page, username: string, password: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/api/oauth/authorize');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The grant_type of every token request the page sends from now on (JSON or form bodies). */
export function recordTokenGrants(page: Page): string[] {
  const grants: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/api/oauth/token') return;
    const body = request.postData() ?? '';
    let grant: unknown;
    try {
      grant = (JSON.parse(body) as { grant_type?: unknown }).grant_type;
    } catch {
      grant = new URLSearchParams(body).get('grant_type');
    }
    grants.push(typeof grant === 'string' ? grant : '(none)');
  });
  return grants;
}
