import { createHash } from 'node:crypto';
import { FAVICON_PATH } from '../../admin-ui/favicon.js';

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

export interface SignInPage {
  clientName: string;
  /** The authorization request and the CSRF token, posted back as hidden fields. */
  hidden: Record<string, string>;
  username?: string;
  /** Why the page is shown again (a wrong password, too many attempts). */
  message?: string;
}

/** The sign-in form of the authorization endpoint. */
export function renderSignInPage({ clientName, hidden, username, message }: SignInPage): string {
  const fields = Object.entries(hidden)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('\n      ');
  const alert = message ? `<p class="message" role="alert" id="sign-in-message">${escape(message)}</p>` : '';
  const described = message ? ' aria-describedby="sign-in-message"' : '';
  return page(
    'Sign in',
    `<h1>Sign in</h1>
    <p>to continue to ${escape(clientName)}.</p>
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
