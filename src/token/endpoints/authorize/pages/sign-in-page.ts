import { createHash } from 'node:crypto';
import { FAVICON_PATH } from '../../../../admin-ui/favicon.js';

/** The pages' only style, inline: the policy admits exactly this text by its hash, and nothing else inline. */
const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
main { box-sizing: border-box; width: 100%; max-width: 24rem; padding: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 0.25rem; }
p { margin: 0 0 1rem; overflow-wrap: anywhere; }
form { display: grid; gap: 0.75rem; }
label { display: grid; gap: 0.25rem; font-weight: 600; }
input { font: inherit; padding: 0.5rem; border: 1px solid GrayText; border-radius: 0.25rem; min-width: 0; }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-top: 0.5rem; }
button { font: inherit; padding: 0.5rem 1rem; border-radius: 0.25rem; border: 1px solid GrayText; cursor: pointer; }
button[value="sign-in"] { background: #1f5fbf; border-color: #1f5fbf; color: #fff; }
.client { font-size: 0.875rem; }
form + .client { margin-top: 1rem; }
code { font-size: 0.875rem; overflow-wrap: anywhere; }
ul { margin: 0 0 1rem; padding-left: 1.25rem; }
li { margin-bottom: 0.25rem; overflow-wrap: anywhere; }
button[value="allow"] { background: #1f5fbf; border-color: #1f5fbf; color: #fff; }
.message { padding: 0.5rem 0.75rem; border-left: 0.25rem solid #b3261e; background: color-mix(in srgb, #b3261e 12%, Canvas); }
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * The policy of the sign-in pages: no script at all, the inline style by its hash, the form posted to this origin
 * only (and, since browsers check the redirect that follows a post, to the client's redirect URI), never framed.
 */
export function signInPagePolicy(redirectOrigin?: string): string {
  return [
    "default-src 'none'",
    `style-src 'sha256-${STYLE_HASH}'`,
    // The service's icon; some browsers check it against the policy.
    "img-src 'self'",
    ['form-action', "'self'", ...(redirectOrigin ? [redirectOrigin] : [])].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Who the page is for: shown so that a person can tell one client from another. */
export interface PageClient {
  clientName: string;
  clientId: string;
  /** The host the browser is sent back to. */
  redirectHost: string;
  builtIn: boolean;
}

export interface SignInPage extends PageClient {
  /** The authorization request and the CSRF token, posted back as hidden fields. */
  hidden: Record<string, string>;
  username?: string;
  /** Why the page is shown again (a wrong password, too many attempts). */
  message?: string;
}

/** The sign-in form of the authorization endpoint. */
export function renderSignInPage({ hidden, username, message, ...client }: SignInPage): string {
  const fields = hiddenFields(hidden);
  const { clientName } = client;
  const alert = message ? `<p class="message" role="alert" id="sign-in-message">${escape(message)}</p>` : '';
  const described = message ? ' aria-describedby="sign-in-message"' : '';
  return page(
    'Sign in',
    `<h1>Sign in</h1>
    <p>to continue to ${escape(clientName)}.</p>
    ${clientLine(client)}
    ${alert}
    <form method="post" action="/api/oauth/authorize"${described}>
      ${fields}
      <label for="username">Username
        <input id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false"
          required maxlength="64" value="${escape(username ?? '')}"${username ? '' : ' autofocus'}>
      </label>
      <label for="password">Password
        <input id="password" name="password" type="password" autocomplete="current-password" required
          maxlength="1024"${username ? ' autofocus' : ''}>
      </label>
      <div class="actions">
        <button type="submit" name="action" value="sign-in">Sign in</button>
        <button type="submit" name="action" value="cancel" formnovalidate>Cancel</button>
      </div>
    </form>`,
  );
}

export interface ConsentPage extends PageClient {
  /** Who signed in. */
  username: string;
  /** Each permission asked for, in words. */
  permissions: ReadonlyArray<{ permission: string; words: string }>;
  hidden: Record<string, string>;
  message?: string;
}

/** The consent page: a registered application asks to act for the person who just signed in. */
export function renderConsentPage({ username, permissions, hidden, message, ...client }: ConsentPage): string {
  const items = permissions
    .map(({ permission, words }) => `<li>${escape(words)} <code>${escape(permission)}</code></li>`)
    .join('\n      ');
  const alert = message ? `<p class="message" role="alert">${escape(message)}</p>` : '';
  return page(
    'Allow access',
    `<h1>Allow ${escape(client.clientName)}?</h1>
    <p>You are signed in as <strong>${escape(username)}</strong>.</p>
    ${clientLine(client)}
    ${alert}
    <p>If you allow it, it may act for you with these permissions:</p>
    <ul>
      ${items}
    </ul>
    <form method="post" action="/api/oauth/authorize">
      ${hiddenFields(hidden)}
      <div class="actions">
        <button type="submit" name="action" value="allow">Allow</button>
        <button type="submit" name="action" value="deny">Deny</button>
      </div>
    </form>
    <p class="client">You can revoke this at any time: Connected applications, in the account menu of this
      service's administration interface.</p>`,
  );
}

/** Which client this is and where the browser goes next: a look-alike name cannot hide them. */
function clientLine({ clientName, clientId, redirectHost, builtIn }: PageClient): string {
  // The built-in name starts in lower case ("the administration interface"); a registered one is shown as given.
  const name = escape(builtIn ? clientName.charAt(0).toUpperCase() + clientName.slice(1) : clientName);
  const what = builtIn
    ? `${name} is this service's own`
    : `${name} is an application registered with this service, not its administration interface`;
  const id = `client_id <code>${escape(clientId)}</code>`;
  const host = `<strong>${escape(redirectHost)}</strong>`;
  return `<p class="client">${what} (${id}). Your browser then goes back to ${host}.</p>`;
}

function hiddenFields(hidden: Record<string, string>): string {
  return Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('\n      ');
}

/** A request the service cannot send back to its client: an unknown client or an unregistered redirect URI. */
export function renderErrorPage(message: string): string {
  return page(
    'Sign-in request refused',
    `<h1>This sign-in request cannot be used</h1>
    <p class="message" role="alert">${escape(message)}</p>
    <p>Go back to the application you came from and start signing in again.</p>`,
  );
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
  <title>${escape(title)}</title>
  <style>${STYLE}</style>
</head>
<body>
  <main>
    ${body}
  </main>
</body>
</html>
`;
}

function escape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}
