import { registerDecorator, type ValidationOptions } from 'class-validator';

export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 2000;

/** Loopback hosts, where a native app listens on plain http (RFC 8252 §7.3, §8.3). */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Why `uri` cannot be a redirect URI, or undefined: an absolute https URL, or http on a loopback host; no fragment
 * (RFC 6749 §3.1.2) and no user info. It is stored and compared as given, so what is registered is what must be sent.
 */
function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (uri.includes('#')) return 'must not have a fragment (#)';
  if (url.username || url.password) return 'must not hold a user name or password';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    return LOOPBACK.has(url.hostname) ? undefined : 'may use http only on 127.0.0.1, localhost or [::1]; use https';
  }
  return 'must be https (or http on a loopback address)';
}

/** Each element a redirect URI by {@link redirectUriProblem}, the message naming the first that is not. */
export function IsRedirectUris(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isRedirectUris',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) && value.every((uri) => typeof uri === 'string' && !redirectUriProblem(uri)),
        defaultMessage: (args) => {
          const value: unknown = args?.value;
          const list = Array.isArray(value) ? (value as unknown[]) : [];
          const index = list.findIndex((uri) => typeof uri !== 'string' || redirectUriProblem(uri));
          const uri = list[index];
          const problem = typeof uri === 'string' ? redirectUriProblem(uri) : 'must be a string';
          return `redirect_uris[${index}] ${problem}`;
        },
      },
    });
}
