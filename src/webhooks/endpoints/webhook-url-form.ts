const PORT_RANGE = 'a port is a number from 1 to 65535';

/**
 * Why `raw` cannot be a webhook URL by its form alone (where it points is WebhookUrlPolicy's business), in a sentence
 * for the person who typed it; undefined when its form is fine. The WHATWG parser only says "Invalid URL", so the
 * likely causes of a refusal (a port out of range, a bad host) are told apart here.
 */
export function urlFormProblem(raw: string, allowHttp: boolean): string | undefined {
  const start = allowHttp ? 'http:// or https://' : 'https://';
  if (raw.trim() === '') return 'Enter the URL the service should send events to.';
  if (!URL.canParse(raw)) {
    return /^\s*https?:/i.test(raw) ? unparsableCause(raw) : `The URL must start with ${start}.`;
  }
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return `The URL must start with ${start}.`;
  if (url.port === '0') return `The port 0 is not valid: ${PORT_RANGE}.`;
  if (url.username || url.password) {
    return 'The URL must not contain a user name or password: receivers check the signature of each request instead.';
  }
  return undefined;
}

/** The authority of an http(s) URL the parser refused, taken apart to name what is wrong with it. */
function unparsableCause(raw: string): string {
  const authority = /^\s*https?:[/\\]*([^/\\?#]*)/i.exec(raw)?.[1] ?? '';
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  const [, host, port] = /^(\[[^\]]*(?:\]|$)|[^:]*)(?::(.*))?$/.exec(hostAndPort) ?? [];
  if (port !== undefined && port !== '') {
    if (!/^\d+$/.test(port)) return `“${port}” is not a port: ${PORT_RANGE}.`;
    if (Number(port) > 65535) return `The port ${port} is out of range: ${PORT_RANGE}.`;
  }
  if (!host) return 'The URL has no host name: write it after the “//”, as in https://example.org/hooks.';
  return `“${host}” is not a valid host name.`;
}
